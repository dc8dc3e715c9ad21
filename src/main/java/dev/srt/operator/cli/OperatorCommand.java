package dev.srt.operator.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.srt.operator.reconcile.ClusterConnections;
import dev.srt.operator.reconcile.ClusterPolicy;
import dev.srt.operator.reconcile.ClusterPreparer;
import dev.srt.operator.reconcile.SrtOperator;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(mixinStandardHelpOptions = true, name = "operator", description = {
    "Runs the Kubernetes operator: reconciles RouterComparisons and GpuClusters into jobs on GPU hosts and writes their status.",
    "Uses the in-cluster configuration, or the current kubeconfig context (or --kubeconfig)."})
public final class OperatorCommand implements Callable<Integer> {
  @Option(names = "--namespaces", split = ",", paramLabel = "NS[,NS...]",
      description = "Watch only these namespaces (default: all namespaces).")
  List<String> namespaces = List.of();

  @Option(names = "--leader-election", description = "Take a Lease before reconciling, so only one replica acts.")
  boolean leaderElection;

  @Option(names = "--leader-election-namespace", paramLabel = "NS",
      description = "Namespace of the Lease (default: $POD_NAMESPACE, else default).")
  String leaderElectionNamespace;

  @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "8080",
      description = "Port of the Prometheus endpoint /metrics (default: ${DEFAULT-VALUE}; 0 disables).")
  int metricsPort;

  @Option(names = "--probe-port", paramLabel = "PORT", defaultValue = "8081",
      description = "Port of /healthz (liveness) and /readyz (all informers healthy) (default: ${DEFAULT-VALUE}; 0 disables).")
  int probePort;

  @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Kubeconfig to use instead of the default one.")
  Path kubeconfig;

  @Option(names = "--cluster-probe-interval", paramLabel = "DURATION", defaultValue = "30s",
      description = "How often each GpuCluster's host is probed (default: ${DEFAULT-VALUE}).")
  String clusterProbeInterval;

  @Option(names = "--starting-poll-interval", paramLabel = "DURATION", defaultValue = "1s",
      description = "How often runs are polled while an arm starts (its job runs, its benchmark has not begun), when that is shorter than its GpuCluster's pollInterval; other runs, queued Slurm jobs included, use pollInterval (default: ${DEFAULT-VALUE}).")
  String startingPollInterval;

  @Option(names = "--allow-local-transport",
      description = {"Accept GpuClusters with transport: local, whose scripts run inside the operator's own process (and pod, "
          + "with its ServiceAccount). Off by default; for trying the operator on one machine and for tests."})
  boolean allowLocalTransport;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    for (String[] flag : new String[][] {{"--cluster-probe-interval", clusterProbeInterval}, {"--starting-poll-interval", startingPollInterval}}) {
      String problem = dev.srt.operator.config.Durations.problem(flag[1]);
      if (problem != null) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), flag[0] + ": " + problem);
      }
    }
    KubernetesClient client = KubeClients.connect(kubeconfig);
    PrometheusMeterRegistry metrics = metricsRegistry();
    String leaseNamespace = !leaderElection ? null
        : leaderElectionNamespace != null ? leaderElectionNamespace
        : System.getenv().getOrDefault("POD_NAMESPACE", "default");
    SrtOperator operator = new SrtOperator(client, new ClusterConnections(client, metrics), metrics,
        new SrtOperator.Settings(Set.copyOf(new LinkedHashSet<>(namespaces)), leaseNamespace,
            dev.srt.operator.config.Durations.parse(clusterProbeInterval, Duration.ofSeconds(30)),
            dev.srt.operator.config.Durations.parse(startingPollInterval, Duration.ofSeconds(1)),
            new ClusterPolicy(allowLocalTransport, allowLocalTransport ? EmulatedHost.operatorPreparer() : ClusterPreparer.NONE)));
    HttpServer probes = probePort == 0 ? null : serve(probePort, List.of(
        route("/healthz", () -> true, "ok"), route("/readyz", operator::healthy, "ready")));
    HttpServer metricsServer = metricsPort == 0 ? null : metricsServer(metricsPort, metrics);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      operator.close();
      if (probes != null) {
        probes.stop(0);
      }
      if (metricsServer != null) {
        metricsServer.stop(0);
      }
      client.close();
      stopped.countDown();
    }, "srt-operator-shutdown"));
    operator.start();
    System.err.println("srt-operator " + VersionCommand.version() + " running"
        + (namespaces.isEmpty() ? " in all namespaces" : " in " + String.join(",", namespaces))
        + (leaseNamespace == null ? "" : " (leader election in " + leaseNamespace + ")")
        + (allowLocalTransport ? "; transport: local allowed (scripts run in this process's environment)" : ""));
    stopped.await();
    return 0;
  }

  record Route(String path, BooleanSupplier ok, String body) {}

  static Route route(String path, BooleanSupplier ok, String body) {
    return new Route(path, ok, body);
  }

  static HttpServer serve(int port, List<Route> routes) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    for (Route r : routes) {
      server.createContext(r.path(), ex -> respond(ex, r.ok().getAsBoolean() ? 200 : 503, r.ok().getAsBoolean() ? r.body() : "not " + r.body()));
    }
    server.start();
    return server;
  }

  /** {@code /metrics} of {@code metrics} on {@code port}, in Prometheus' text format (tests scrape it as Prometheus would). */
  public static HttpServer metricsServer(int port, PrometheusMeterRegistry metrics) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    server.createContext("/metrics", ex -> respond(ex, 200, metrics.scrape(), "text/plain; version=0.0.4; charset=utf-8"));
    server.start();
    return server;
  }

  /** The operator's registry: its own meters come with the process's ({@link ProcessMeters}), within {@link MeterConventions}. */
  public static PrometheusMeterRegistry metricsRegistry() {
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    metrics.config().meterFilter(new MeterConventions());
    ProcessMeters.bindTo(metrics);
    return metrics;
  }

  private static void respond(HttpExchange ex, int status, String body) throws IOException {
    respond(ex, status, body, "text/plain; charset=utf-8");
  }

  private static void respond(HttpExchange ex, int status, String body, String contentType) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", contentType);
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
