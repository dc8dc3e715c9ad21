package dev.srt.operator.emulator;

import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The engine's native gRPC port ({@code --grpc-port}): SGLang's {@code sglang.runtime.v1.SglangService}
 * with the RPCs Dynamo's SGLang sidecar (ai-dynamo-runtime 1.6.1) calls — {@code HealthCheck},
 * {@code GetServerInfo}, {@code GetModelInfo}, {@code ListModels}, {@code Generate} (tokenized, server
 * streaming, incremental output ids), {@code Abort} — plus {@code WatchEngineState}, which the
 * emulator's own sidecar stand-in holds open to learn when the engine goes away. Other RPCs answer
 * {@code UNIMPLEMENTED}. Plaintext HTTP/2, as SGLang serves it.
 */
final class EngineGrpcService implements AutoCloseable {
  /** What the service asks of the engine. */
  interface Engine {
    boolean healthy();

    String serverInfoJson();

    String modelPath();

    String modelInfoJson();

    String servedModelName();

    int contextLength();

    /** Runs one tokenized request to its end, handing each chunk to {@code sink}; blocking. */
    void generate(SglangProto.GenerateRequest request, GenerateSink sink);
  }

  /** Where a generation's chunks go. */
  interface GenerateSink {
    void chunk(int[] outputIds, Map<String, String> metaInfo, boolean finished);

    /** True once the client went away or the request was aborted: stop generating. */
    boolean cancelled();
  }

  private final Engine engine;
  private final Server server;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "engine-grpc");
    t.setDaemon(true);
    return t;
  });
  private final Set<String> aborted = ConcurrentHashMap.newKeySet();
  private final Set<StreamObserver<byte[]>> watchers = ConcurrentHashMap.newKeySet();

  EngineGrpcService(int port, Engine engine) throws IOException {
    this.engine = engine;
    this.server = NettyServerBuilder
        .forAddress(new InetSocketAddress(ListenAddress.current().bindAddress(), port))
        .executor(executor)
        .addService(definition())
        .build()
        .start();
  }

  int port() {
    return server.getPort();
  }

  private ServerServiceDefinition definition() {
    return ServerServiceDefinition.builder(SglangProto.SERVICE)
        .addMethod(unary("HealthCheck"), ServerCalls.asyncUnaryCall((req, out) ->
            reply(out, SglangProto.boolField(engine.healthy()))))
        .addMethod(unary("GetServerInfo"), ServerCalls.asyncUnaryCall((req, out) ->
            reply(out, SglangProto.jsonInfo(engine.serverInfoJson()))))
        .addMethod(unary("GetModelInfo"), ServerCalls.asyncUnaryCall((req, out) ->
            reply(out, SglangProto.modelInfo(engine.modelPath(), engine.modelInfoJson()))))
        .addMethod(unary("ListModels"), ServerCalls.asyncUnaryCall((req, out) ->
            reply(out, SglangProto.listModels(engine.servedModelName(), engine.contextLength()))))
        .addMethod(unary("Abort"), ServerCalls.asyncUnaryCall(this::abort))
        .addMethod(streaming("Generate"), ServerCalls.asyncServerStreamingCall(this::generate))
        .addMethod(streaming("WatchEngineState"), ServerCalls.asyncServerStreamingCall(this::watch))
        .build();
  }

  private static MethodDescriptor<byte[], byte[]> unary(String name) {
    return method(name, MethodDescriptor.MethodType.UNARY);
  }

  private static MethodDescriptor<byte[], byte[]> streaming(String name) {
    return method(name, MethodDescriptor.MethodType.SERVER_STREAMING);
  }

  private static MethodDescriptor<byte[], byte[]> method(String name, MethodDescriptor.MethodType type) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SglangProto.SERVICE, name))
        .setRequestMarshaller(SglangProto.BYTES)
        .setResponseMarshaller(SglangProto.BYTES)
        .build();
  }

  private static void reply(StreamObserver<byte[]> out, byte[] message) {
    out.onNext(message);
    out.onCompleted();
  }

  private void abort(byte[] request, StreamObserver<byte[]> out) {
    try {
      SglangProto.AbortRequest a = SglangProto.abortRequest(request);
      if (!a.rid().isEmpty()) {
        aborted.add(a.rid());
      }
      reply(out, SglangProto.boolField(true));
    } catch (IOException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
    }
  }

  private void generate(byte[] request, StreamObserver<byte[]> out) {
    SglangProto.GenerateRequest req;
    try {
      req = SglangProto.generateRequest(request);
    } catch (IOException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    if (!engine.healthy()) {
      out.onError(Status.UNAVAILABLE.withDescription("The server is starting up").asRuntimeException());
      return;
    }
    ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) out;
    try {
      engine.generate(req, new GenerateSink() {
        @Override
        public void chunk(int[] outputIds, Map<String, String> metaInfo, boolean finished) {
          if (!call.isCancelled()) {
            call.onNext(SglangProto.generateResponse(outputIds, metaInfo, finished));
          }
        }

        @Override
        public boolean cancelled() {
          return call.isCancelled() || (req.rid() != null && aborted.contains(req.rid()));
        }
      });
      if (!call.isCancelled()) {
        call.onCompleted();
      }
    } catch (RuntimeException e) {
      if (!call.isCancelled()) {
        call.onError(Status.INTERNAL.withDescription(e.getMessage()).asRuntimeException());
      }
    } finally {
      if (req.rid() != null) {
        aborted.remove(req.rid());
      }
    }
  }

  /** One snapshot, then held open: the stream ends only when the engine does. */
  private void watch(byte[] request, StreamObserver<byte[]> out) {
    watchers.add(out);
    ((ServerCallStreamObserver<byte[]>) out).setOnCancelHandler(() -> watchers.remove(out));
    out.onNext(SglangProto.engineState(1, engine.healthy(), engine.serverInfoJson()));
  }

  @Override
  public void close() {
    for (StreamObserver<byte[]> w : watchers) {
      try {
        w.onError(Status.UNAVAILABLE.withDescription("the engine is shutting down").asRuntimeException());
      } catch (RuntimeException e) {
        // already cancelled
      }
    }
    server.shutdownNow();
    try {
      server.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    executor.shutdownNow();
  }
}
