package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.testinfra.TestCluster;
import dev.srt.operator.testinfra.TestHosts;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The operator in this JVM (real JOSDK runtime and Fabric8 client against the CRUD mock API
 * server) with GpuClusters on this machine behind the test sshd, Slurm partition {@code debug} or
 * direct, the emulator's shims first on their {@code path}: the fault ITs' host. Every cluster
 * polls every 500 ms; every comparison has one worker per arm and the emulator's small workload.
 */
final class OperatorOnTestHost implements AutoCloseable {
  static final String NS = "faults";
  /** The ports a one-worker arm of {@link #comparison} listens on (engine, gRPC, sidecar, router, etcd, KV events, NCCL). */
  static final List<Integer> ARM_PORTS = List.of(2379, 2380, 5200, 6100, 7500, 8000, 17500, 50051);

  final MockApiServer api;
  final KubernetesClient client;
  final Path base;
  private final EmulatedSlurmHost emulated;
  private final SrtOperator operator;

  private OperatorOnTestHost(EmulatedSlurmHost emulated) throws Exception {
    this.emulated = emulated;
    this.base = emulated.base;
    api = new MockApiServer();
    client = api.client;
    EmulatedSlurmHost.createSshSecret(client, NS, "test-host-ssh");
    operator = new SrtOperator(client, new ClusterConnections(client, new SimpleMeterRegistry()), new SimpleMeterRegistry(),
        new SrtOperator.Settings(Set.of(), null, Duration.ofSeconds(10), Duration.ofMillis(500), new ClusterPolicy(false)));
    operator.start();
  }

  /** Requires the test sshd and Slurm, installs the shims under {@code /tmp/<prefix>…} and starts the operator. */
  static OperatorOnTestHost start(String prefix) throws Exception {
    TestHosts.requireSlurm();
    assertThat(EmulatedSlurmHost.JAR).as("the shaded jar (mvn package) runs the emulator").exists();
    return new OperatorOnTestHost(EmulatedSlurmHost.install(prefix));
  }

  /** Creates GpuCluster {@code name} ({@code slurm} or {@code direct}) with {@code env}, work directory {@code <base>/work-<name>}. */
  GpuCluster cluster(String name, String mode, Map<String, String> env) {
    String yaml = TestCluster.named(name, TestHosts.ssh()).mode(mode).keyFromSecret("test-host-ssh").workDir(workDir(name))
        .path(emulated.emulatorBin()).env("SRT_EMULATOR_STATE", base.resolve("emulator/state")).env(env)
        .partition(TestHosts.slurmPartition()).yaml();
    LoadedResources r = LoadedResources.parse(name + ".yaml", yaml);
    assertThat(r.problems()).as(yaml).isEmpty();
    GpuCluster cluster = r.clusters().get(0);
    cluster.getMetadata().setNamespace(NS);
    return client.resource(cluster).create();
  }

  Path workDir(String cluster) {
    return base.resolve("work-" + cluster);
  }

  /**
   * Creates comparison {@code name} on {@code cluster} with {@code armsYaml} (the lines of
   * {@code spec.arms}, indented by two), one worker per arm, run in declared order.
   */
  RouterComparison comparison(String name, String cluster, String armsYaml) {
    return comparison(name, cluster, armsYaml, Map.of());
  }

  /** {@link #comparison(String, String, String)} with {@code backendEnv} in every engine's environment. */
  RouterComparison comparison(String name, String cluster, String armsYaml, Map<String, String> backendEnv) {
    StringBuilder env = new StringBuilder("{");
    backendEnv.forEach((k, v) -> env.append(env.length() > 1 ? ", " : "").append(k).append(": \"").append(v).append('"'));
    String yaml = """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: %s}
        spec:
          clusterRef: {name: %s}
          model: {path: /models/Qwen3-32B-FP8, servedModelName: Qwen/Qwen3-32B-FP8}
          resources: {aggNodes: 1, aggWorkers: 1, gpusPerWorker: 4}
          backend:
            type: sglang
            args: {tensor-parallel-size: 4, page-size: 64, enable-metrics: true}
            env: %s}
            kvEvents: {publisher: zmq, topic: kv-events}
          dynamo:
            hash: 4dca1626b2708383514fcd65ac816ba7429c05a4
            source: {git: https://github.com/ai-dynamo/dynamo}
            eventPlane: zmq
            requestPlane: tcp
          healthCheck: {timeout: 2m, interval: 1s}
          workload:
            tool: bench-serving
            args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 1024}
          execution: {order: declared}
          arms:
        %s""".formatted(name, cluster, env, armsYaml.indent(2));
    LoadedResources r = LoadedResources.parse(name + ".yaml", yaml);
    assertThat(r.hasErrors()).as(r.problems() + "\n" + yaml).isFalse();
    RouterComparison rc = r.comparisons().get(0);
    rc.getMetadata().setNamespace(NS);
    return client.resource(rc).create();
  }

  RouterComparison get(String name) {
    return client.resources(RouterComparison.class).inNamespace(NS).withName(name).get();
  }

  /** Arm {@code arm} of comparison {@code name} as its status shows it, or null. */
  ArmStatus arm(String name, String arm) {
    RouterComparison rc = get(name);
    if (rc == null || rc.getStatus() == null || rc.getStatus().arms == null) {
      return null;
    }
    return rc.getStatus().arms.stream().filter(a -> arm.equals(a.name)).findFirst().orElse(null);
  }

  /** Waits until arm {@code arm} of comparison {@code name} satisfies {@code condition}, and returns it. */
  ArmStatus awaitArm(String name, String arm, Duration atMost, Predicate<ArmStatus> condition) {
    await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
      ArmStatus a = arm(name, arm);
      return a != null && condition.test(a);
    });
    return arm(name, arm);
  }

  /** The Kubernetes Events of comparison {@code name}: reason and message, one per line. */
  List<String> events(String name) {
    List<String> out = new ArrayList<>();
    for (Event e : client.v1().events().inNamespace(NS).list().getItems()) {
      if (e.getInvolvedObject() != null && name.equals(e.getInvolvedObject().getName())) {
        out.add(e.getReason() + " " + e.getMessage());
      }
    }
    return out;
  }

  /** Running processes of run {@code runId} whose command line contains every one of {@code words}. */
  static List<Long> processes(String runId, String... words) throws Exception {
    List<Long> found = new ArrayList<>();
    for (String pid : OperatorEndToEndIT.processesOf(runId)) {
      long p = Long.parseLong(pid);
      try {
        String cmdline = new String(Files.readAllBytes(Path.of("/proc", pid, "cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
        if (List.of(words).stream().allMatch(cmdline::contains) && !zombie(p)) {
          found.add(p);
        }
      } catch (java.io.IOException gone) {
        // ended while we looked
      }
    }
    return found;
  }

  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).charAt(0) == 'Z';
    } catch (java.io.IOException | RuntimeException e) {
      return true;
    }
  }

  /** The run's processes still alive (not zombies): none once it is over. */
  static List<Long> live(String runId) throws Exception {
    return processes(runId);
  }

  /** Which of {@code ports} something on this machine listens on (ss -ltn). */
  static List<Integer> listening(List<Integer> ports) throws Exception {
    String out = EmulatedSlurmHost.run(List.of("ss", "-ltnH"));
    List<Integer> busy = new ArrayList<>();
    for (int port : ports) {
      if (out.lines().anyMatch(l -> l.split("\\s+").length > 3 && l.split("\\s+")[3].endsWith(":" + port))) {
        busy.add(port);
      }
    }
    return busy;
  }

  /** Whether something on this machine listens on {@code port}. */
  static boolean listens(int port) {
    try {
      return !listening(List.of(port)).isEmpty();
    } catch (Exception e) {
      throw new IllegalStateException("ss -ltn", e);
    }
  }

  /** Slurm's state of job {@code jobId} (COMPLETED, FAILED, CANCELLED, ...; finished jobs stay listed for an hour). */
  static String jobState(String jobId) throws Exception {
    return EmulatedSlurmHost.run(List.of("squeue", "--states=all", "-h", "-j", jobId, "-o", "%T")).strip();
  }

  /** Every comparison's arms with their phase and message, for assertion messages. */
  String diagnostics() {
    StringBuilder out = new StringBuilder();
    for (RouterComparison rc : client.resources(RouterComparison.class).inNamespace(NS).list().getItems()) {
      out.append('\n').append(rc.getMetadata().getName()).append(": ");
      if (rc.getStatus() != null && rc.getStatus().arms != null) {
        rc.getStatus().arms.forEach(a -> out.append(a.name).append('=').append(a.phase).append(" (").append(a.message).append(") "));
      }
    }
    return out.toString();
  }

  @Override
  public void close() throws Exception {
    try {
      operator.close();
    } finally {
      api.close();
      emulated.remove();
    }
  }
}
