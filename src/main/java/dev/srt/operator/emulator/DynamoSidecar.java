package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The Dynamo SGLang sidecar ({@code python3 -m dynamo.sglang.sidecar}): attaches to the engine's
 * native gRPC port, learns the engine from it ({@code GetServerInfo}), registers one {@code generate} instance (in etcd or
 * the file store, see {@link DiscoveryBackend}) and holds it while the engine lives. Losing the
 * engine removes the registration and ends the sidecar with status 1 (the supervisor then stops
 * the pair); SIGTERM removes it and ends 0.
 */
public final class DynamoSidecar implements EmulatedProcess {
  /**
   * {@code component} null means Dynamo's choice: {@code prefill} for a prefill engine, else
   * {@code backend}; {@code disaggregationMode} null means the engine's own; {@code bootstrapHost}
   * null means the host of the engine's URL.
   */
  public record Options(String grpcHost, int grpcPort, long startupDeadlineMs, long retryIntervalMs, String namespace,
      String component, Integer systemPort, String disaggregationMode, String bootstrapHost) {

    public static Options parse(List<String> argv, Map<String, String> env, PrintStream err) {
      // Strict: refuses what the sidecar's clap parser (ai-dynamo-runtime 1.6.1) refuses, the options it reads from
      // the environment included (flags/dynamo.sglang.sidecar.flags).
      ArgParser.Parsed a = ArgParser.strict("dynamo.sglang.sidecar")
          .value("--grpc-endpoint")
          .value("--grpc-startup-deadline-secs")
          .value("--grpc-retry-interval-secs")
          .value("--namespace")
          .value("--component")
          .value("--disaggregation-mode")
          .value("--bootstrap-host")
          .parse(argv, env);
      a.reportIgnored("dynamo.sglang.sidecar", err);
      String endpoint = a.get("--grpc-endpoint", env.getOrDefault("DYN_SIDECAR_GRPC_ENDPOINT", env.get("SGLANG_GRPC_ENDPOINT")));
      if (endpoint == null) {
        throw new IllegalArgumentException("--grpc-endpoint (or DYN_SIDECAR_GRPC_ENDPOINT) is required");
      }
      String hostPort = endpoint.replaceFirst("^[a-z]+://", "");
      int colon = hostPort.lastIndexOf(':');
      if (colon < 0) {
        throw new IllegalArgumentException("--grpc-endpoint must be HOST:PORT, got " + endpoint);
      }
      String sys = env.get("DYN_SYSTEM_PORT");
      return new Options(
          hostPort.substring(0, colon),
          Integer.parseInt(hostPort.substring(colon + 1)),
          Math.round(a.getDouble("--grpc-startup-deadline-secs", 1800) * 1000),
          Math.round(a.getDouble("--grpc-retry-interval-secs", 1) * 1000),
          a.get("--namespace", env.getOrDefault("DYN_NAMESPACE", "dynamo")),
          a.get("--component"),
          sys == null || sys.isBlank() ? null : Integer.parseInt(sys.trim()),
          sidecarDisaggregationMode(a.get("--disaggregation-mode", env.get("DYN_DISAGGREGATION_MODE"))),
          a.get("--bootstrap-host"));
    }
  }

  /** The sidecar's {@code agg} is the engine's {@code null}; {@code encode} workers are not emulated. */
  static String sidecarDisaggregationMode(String mode) {
    if ("encode".equals(mode)) {
      throw new IllegalArgumentException("--disaggregation-mode encode is not emulated");
    }
    return "agg".equals(mode) ? Disaggregation.AGGREGATED : mode;
  }

  private final Options opts;
  private final Map<String, String> env;
  private final PrintStream err;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private volatile NatsConnection nats;
  private volatile EngineGrpcClient engine;
  private volatile DiscoveryBackend.Registrar registrar;
  private volatile String component;
  private volatile HttpServer system;
  private volatile boolean started;

  public DynamoSidecar(Options opts, Map<String, String> env, PrintStream err) {
    this.opts = opts;
    this.env = env;
    this.err = err;
  }

  @Override
  public void start() throws Exception {
    DynamoInstall.find(env, "dynamo.sglang.sidecar");
    nats = NatsConnection.open(env, "dynamo.sglang.sidecar", err);
    registrar = DiscoveryBackend.choose(env, null, err).registrar(err, () -> {
      if (exit.complete(1)) {
        err.println("dynamo.sglang.sidecar (emulated): lost the discovery lease; exiting");
      }
    });
    if (opts.systemPort() != null) {
      system = Http.server(opts.systemPort(), "sidecar-system");
      system.createContext("/", new Endpoints()
          .on("/live", ex -> Http.sendJson(ex, 200, Json.object().put("status", "live")))
          // like Dynamo: runtime dependencies reachable, which says nothing about the engine
          .on("/health", ex -> Http.sendJson(ex, 200, Json.object().put("status", "ready")))
          .on("/metrics", ex -> Http.send(ex, 200, PrometheusText.CONTENT_TYPE, new PrometheusText()
              .gauge("dynamo_component_engine_connected", "1 while the engine's native channel is open.",
                  isRegistered() ? 1 : 0, "dynamo_namespace", opts.namespace(),
                  "dynamo_component", component == null ? "backend" : component)
              .toString())));
      system.start();
    }
    Thread t = new Thread(() -> exit.complete(attachAndHold()), "sidecar-engine");
    t.setDaemon(true);
    t.start();
    started = true;
  }

  /** Returns the exit status: 1 when the engine never came up or went away. */
  private int attachAndHold() {
    String host = opts.grpcHost().equals("0.0.0.0") ? "127.0.0.1" : opts.grpcHost();
    long deadline = System.currentTimeMillis() + opts.startupDeadlineMs();
    int attempts = 0;
    EngineGrpcClient client = new EngineGrpcClient(host, opts.grpcPort());
    engine = client;
    JsonNode info;
    while (true) {
      try {
        attempts++;
        info = client.serverInfo(2000);
        // the attempt count shows whether the engine's port was already bound when this process started
        err.printf("dynamo.sglang.sidecar (emulated): connected to engine gRPC %s:%d at epoch ms %d after %d attempt(s)%n",
            host, opts.grpcPort(), System.currentTimeMillis(), attempts);
        break;
      } catch (IOException | RuntimeException e) {
        if (System.currentTimeMillis() >= deadline || exit.isDone()) {
          err.printf("dynamo.sglang.sidecar (emulated): engine gRPC %s:%d not reachable before the startup deadline%n",
              host, opts.grpcPort());
          client.close();
          return 1;
        }
        sleep(Math.min(opts.retryIntervalMs(), Math.max(1, deadline - System.currentTimeMillis())));
      }
    }
    try {
      String mode = opts.disaggregationMode() != null ? opts.disaggregationMode()
          : info.path("disaggregation_mode").asText(FileDiscovery.Instance.AGGREGATED);
      // Dynamo's SGLang workers serve prefill under their own component, decode and aggregated under backend
      component = opts.component() != null ? opts.component() : mode.equals("prefill") ? "prefill" : "backend";
      long instanceId = registrar.instanceId();
      // the engine's HTTP server as the other nodes reach it: the sidecar meets its engine on this node's
      // loopback, so a loopback endpoint names this node (its address with SRT_EMULATOR_LISTEN=node)
      String urlHost = host.equals("127.0.0.1") || host.equals("localhost") ? ListenAddress.current().host() : host;
      String httpUrl = "http://" + urlHost + ":" + info.path("port").asInt();
      BootstrapServer bootstrap = mode.equals("prefill") ? bootstrap(httpUrl, info.path("disaggregation_bootstrap_port").asInt()) : null;
      registrar.register(new FileDiscovery.Instance(opts.namespace(), component, "generate",
          instanceId, host + ":" + opts.grpcPort(), info.path("served_model_name").asText(), httpUrl,
          info.path("page_size").asInt(16), ProcessHandle.current().pid(), mode, bootstrap));
      err.printf("dynamo.sglang.sidecar (emulated): registered %s.%s.generate instance %x for %s (%s, disaggregation mode %s)%s%n",
          opts.namespace(), component, instanceId, info.path("served_model_name").asText(), httpUrl, mode,
          bootstrap == null ? "" : ", bootstrap server " + bootstrap.host() + ":" + bootstrap.port());
      io.grpc.Status end = client.watchUntilGone();
      if (exit.isDone()) {
        return 0;
      }
      err.println("dynamo.sglang.sidecar (emulated): the engine went away (" + end.getCode() + "); deregistering and exiting");
    } catch (IOException | RuntimeException e) {
      if (exit.isDone()) {
        return 0;
      }
      err.println("dynamo.sglang.sidecar (emulated): engine channel failed: " + e.getMessage());
    } finally {
      client.close();
    }
    deregister();
    return 1;
  }

  /**
   * The prefill engine's bootstrap server as the decode engines reach it: the published
   * {@code --bootstrap-host}, else the engine's own host (which is only routable when the engine
   * serves on its node's address, the bug of ai-dynamo/dynamo PR #12026 otherwise).
   */
  private BootstrapServer bootstrap(String httpUrl, int port) {
    return new BootstrapServer(opts.bootstrapHost() != null ? opts.bootstrapHost() : URI.create(httpUrl).getHost(), port);
  }

  private void deregister() {
    DiscoveryBackend.Registrar r = registrar;
    if (r != null) {
      try {
        r.deregister();
      } catch (RuntimeException e) {
        err.println("dynamo.sglang.sidecar (emulated): cannot deregister: " + e.getMessage());
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** True while the instance is registered. */
  public boolean isRegistered() {
    DiscoveryBackend.Registrar r = registrar;
    return r != null && r.registered();
  }

  @Override
  public int awaitExit() throws InterruptedException {
    return EmulatedProcess.exitCodeOf(exit);
  }

  @Override
  public void close() {
    boolean first = exit.complete(0);
    if (first && started) {
      // stopped from outside (SIGTERM, usually the supervisor after its engine ended), not by itself
      err.println("dynamo.sglang.sidecar (emulated): stopping" + (isRegistered() ? "; deregistering" : ""));
    }
    DiscoveryBackend.Registrar r = registrar;
    if (r != null) {
      r.close();
    }
    if (first) {
      EngineGrpcClient c = engine;
      if (c != null) {
        c.close();
      }
    }
    HttpServer sys = system;
    if (sys != null) {
      sys.stop(0);
    }
    NatsConnection n = nats;
    if (n != null) {
      n.close();
    }
  }
}
