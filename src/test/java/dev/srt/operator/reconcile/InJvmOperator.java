package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.testinfra.TestCluster;
import dev.srt.operator.testinfra.TestHosts;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fault tests' operator: the real JOSDK runtime in this JVM against the CRUD mock API server,
 * a GpuCluster over SSH whose key is in a Secret, and the emulator's shims installed in a
 * temporary work directory (as {@link OperatorEndToEndIT}). Comparisons poll every 500 ms.
 */
final class InJvmOperator implements AutoCloseable {
  static final String NS = "faults";
  static final String CLUSTER = "h100-box";
  static final String SECRET = "h100-box-ssh";
  final EmulatedSlurmHost host;
  final Path base;
  final MockApiServer api;
  final KubernetesClient client;
  final SrtOperator operator;

  InJvmOperator(TestHosts.SshTarget ssh) throws Exception {
    this(ssh, new SimpleMeterRegistry());
  }

  /** The operator with its meters in {@code metrics} (what {@code /metrics} serves). */
  InJvmOperator(TestHosts.SshTarget ssh, MeterRegistry metrics) throws Exception {
    assertThat(EmulatedSlurmHost.JAR).as("the shaded jar (mvn package) runs the emulator").exists();
    host = EmulatedSlurmHost.install("srt-faults-");
    base = host.base;
    api = new MockApiServer();
    client = api.client;
    client.secrets().inNamespace(NS).resource(keySecret(ssh.keyFile(), ssh.knownHostsFile())).create();
    operator = new SrtOperator(client, new ClusterConnections(client, metrics), metrics,
        new SrtOperator.Settings(Set.of(), null, Duration.ofSeconds(10), Duration.ofMillis(500), new ClusterPolicy(false)));
    operator.start();
  }

  /** The GpuCluster's Secret: the private key and known_hosts from these files. */
  static Secret keySecret(Path key, Path knownHosts) throws Exception {
    return new SecretBuilder().withNewMetadata().withName(SECRET).withNamespace(NS).endMetadata()
        .withData(Map.of("id_ed25519", EmulatedSlurmHost.b64(Files.readAllBytes(key)),
            "known_hosts", EmulatedSlurmHost.b64(Files.readAllBytes(knownHosts))))
        .build();
  }

  /**
   * A comparison {@code name} on GpuCluster {@value #CLUSTER}: two TP4 workers on one node, a small
   * benchmark, and {@code armsYaml} (list items, indented by two spaces).
   */
  static String comparison(String name, String healthTimeout, String armsYaml) {
    return """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: %s}
        spec:
          clusterRef: {name: %s}
          model: {path: /models/Qwen3-32B-FP8, servedModelName: Qwen/Qwen3-32B-FP8}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
          backend:
            type: sglang
            args: {tensor-parallel-size: 4}
          healthCheck: {timeout: %s, interval: 1s}
          workload:
            tool: bench-serving
            args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 16}
          arms:
        %s""".formatted(name, CLUSTER, healthTimeout, armsYaml);
  }

  /** One arm item of {@link #comparison}: sgl-router with {@code policy}. */
  static String sglRouterArm(String name, String policy) {
    return "  - name: " + name + "\n"
        + "    frontend: {type: sgl-router, source: /src/sglang/experimental/sgl-router, args: {policy: " + policy + "}}\n";
  }

  /**
   * Creates GpuCluster {@value #CLUSTER} (Slurm over SSH to {@code ssh}, partition {@code partition},
   * {@code env} beside the emulator's state) and {@code comparisonYaml}.
   */
  void apply(TestHosts.SshTarget ssh, String partition, Map<String, String> env, String comparisonYaml) {
    String yaml = comparisonYaml + "\n---\n" + TestCluster.named(CLUSTER, ssh).keyFromSecret(SECRET).connectTimeout("3s")
        .workDir(base.resolve("work")).path(base.resolve("emulator/bin"))
        .env("SRT_EMULATOR_STATE", base.resolve("emulator/state")).env(env).partition(partition).yaml();
    LoadedResources r = LoadedResources.parse("faults.yaml", yaml);
    assertThat(r.hasErrors()).as(r.problems().toString()).isFalse();
    GpuCluster cluster = r.clusters().get(0);
    cluster.getMetadata().setNamespace(NS);
    client.resource(cluster).create();
    RouterComparison rc = r.comparisons().get(0);
    rc.getMetadata().setNamespace(NS);
    client.resource(rc).create();
  }

  RouterComparison rc(String name) {
    return client.resources(RouterComparison.class).inNamespace(NS).withName(name).get();
  }

  ArmStatus arm(String comparison, String arm) {
    RouterComparison rc = rc(comparison);
    if (rc == null || rc.getStatus() == null || rc.getStatus().arms == null) {
      return null;
    }
    return rc.getStatus().arms.stream().filter(a -> arm.equals(a.name)).findFirst().orElse(null);
  }

  List<Event> events() {
    return client.v1().events().inNamespace(NS).list().getItems();
  }

  /** Events of {@code reason}, as {@code message} lines. */
  List<String> events(EventReason reason) {
    return events().stream().filter(e -> reason.name().equals(e.getReason())).map(Event::getMessage).toList();
  }

  @Override
  public void close() throws Exception {
    operator.close();
    api.close();
    host.remove();
  }
}
