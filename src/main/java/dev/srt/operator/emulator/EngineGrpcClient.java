package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.CodedInputStream;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.IOException;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;

/**
 * The emulator's sidecar stand-in's side of the engine's gRPC service: the server info
 * ({@code GetServerInfo}) and a {@code WatchEngineState} stream held open until the engine goes away.
 */
final class EngineGrpcClient implements AutoCloseable {
  private final ManagedChannel channel;

  EngineGrpcClient(String host, int port) {
    channel = NettyChannelBuilder.forAddress(host, port).usePlaintext().build();
  }

  /** The engine's server info; throws {@link StatusRuntimeException} while it cannot be reached. */
  JsonNode serverInfo(long timeoutMs) throws IOException {
    byte[] reply = ClientCalls.blockingUnaryCall(channel, method("GetServerInfo", MethodDescriptor.MethodType.UNARY),
        CallOptions.DEFAULT.withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS), new byte[0]);
    CodedInputStream in = CodedInputStream.newInstance(reply);
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag >>> 3 == 1) {
        return Json.parse(in.readString());
      }
      in.skipField(tag);
    }
    throw new IOException("GetServerInfo returned no json_info");
  }

  /** Blocks while the engine's state stream stays open; returns how it ended. */
  Status watchUntilGone() {
    ClientCall<byte[], byte[]> call = channel.newCall(method("WatchEngineState", MethodDescriptor.MethodType.SERVER_STREAMING),
        CallOptions.DEFAULT);
    try {
      Iterator<byte[]> states = ClientCalls.blockingServerStreamingCall(call, new byte[0]);
      while (states.hasNext()) {
        states.next();
      }
      return Status.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus();
    }
  }

  private static MethodDescriptor<byte[], byte[]> method(String name, MethodDescriptor.MethodType type) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SglangProto.SERVICE, name))
        .setRequestMarshaller(SglangProto.BYTES)
        .setResponseMarshaller(SglangProto.BYTES)
        .build();
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
