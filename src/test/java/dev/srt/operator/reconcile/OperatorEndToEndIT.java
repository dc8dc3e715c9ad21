package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.testinfra.TestHosts;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole operator: real JOSDK runtime and Fabric8 client against the CRUD mock API server (the
 * one stand-in), the SSH key in a Secret, the real sshd on 127.0.0.1:2222, real Slurm with 8 fake
 * GPUs, and the emulated engines, routers and benchmark behind the emulator's shims.
 */
class OperatorEndToEndIT {
  static final String NS = "bench";

  MockApiServer api;
  KubernetesClient client;
  SrtOperator operator;
  EmulatedSlurmHost host;

  @BeforeEach
  void start() throws Exception {
    TestHosts.requireSlurm();
    assertThat(EmulatedSlurmHost.JAR).as("the shaded jar (mvn package) runs the emulator").exists();
    host = EmulatedSlurmHost.install("srt-op-e2e-");
    api = new MockApiServer();
    client = api.client;
    EmulatedSlurmHost.createSshSecret(client, NS, "h100-box-ssh");
    operator = new SrtOperator(client, new ClusterConnections(client, new SimpleMeterRegistry()), new SimpleMeterRegistry(),
        new SrtOperator.Settings(java.util.Set.of(), null, Duration.ofSeconds(10), Duration.ofMillis(500), new ClusterPolicy(false)));
    operator.start();
  }

  @AfterEach
  void stop() throws Exception {
    if (operator != null) {
      operator.close();
    }
    if (api != null) {
      api.close();
    }
    // SRT_KEEP_E2E=1 keeps the run directories for a look after a failure.
    if (host != null) {
      host.remove();
    }
  }

  void applyExample() throws Exception {
    String yaml = Files.readString(Path.of("examples/router-comparison.yaml"))
        .replace("healthCheck: {timeout: 30m, interval: 10s}", "healthCheck: {timeout: 2m, interval: 1s}")
        // a quarter of the prompt groups: the same prefix structure, a quarter of the requests
        .replace("num-prompts: 1024}", "num-prompts: 1024, gsp-num-groups: 16}")
        + "\n---\n" + host.clusterYaml("h100-box", "h100-box-ssh", List.of(), "1s");
    EmulatedSlurmHost.create(client, NS, "e2e.yaml", yaml);
  }

  RouterComparison rc() {
    return client.resources(RouterComparison.class).inNamespace(NS).withName("qwen3-32b-routers").get();
  }

  @Test
  void runsAllThreeArmsOnSlurmOverSshAndLeavesNothingBehind() throws Exception {
    applyExample();
    await().atMost(Duration.ofSeconds(60)).until(() -> {
      GpuCluster c = client.resources(GpuCluster.class).inNamespace(NS).withName("h100-box").get();
      return c.getStatus() != null && Conditions.isTrue(c.getStatus().conditions, "Reachable");
    });
    GpuCluster cluster = client.resources(GpuCluster.class).inNamespace(NS).withName("h100-box").get();
    assertThat(cluster.getStatus().slurmVersion).startsWith("slurm");
    assertThat(cluster.getStatus().gpus).anySatisfy(g -> assertThat(g).contains("gpu:8"));

    await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
        .until(() -> rc() != null && rc().getStatus() != null && (Conditions.isTrue(rc().getStatus().conditions, "Complete")
            || "Failed".equals(rc().getStatus().phase)));
    RouterComparison done = rc();
    assertThat(done.getStatus().phase).as(Mappers.yaml().writeValueAsString(done.getStatus()) + logsOfFailedArms(done)).isEqualTo("Succeeded");
    assertThat(done.getStatus().armsSummary).isEqualTo("3/3");
    for (ArmStatus arm : done.getStatus().arms) {
      assertThat(arm.phase).isEqualTo("Succeeded");
      assertThat(arm.workers.ready).isEqualTo(2);
      assertThat(arm.workers.total).isEqualTo(2);
      assertThat(arm.router.ready).isTrue();
      assertThat(arm.endpoints).allSatisfy(e -> assertThat(e.url).startsWith("http://127.0.0.1:"));
      assertThat(arm.resultFiles).contains("results/bench-serving.jsonl");
      assertThat(arm.results.requestThroughput).isNotNull();
      assertThat(run(List.of("scontrol", "-o", "show", "job", arm.jobId))).contains("JobState=COMPLETED");
    }

    client.resource(done).delete();
    await().atMost(Duration.ofSeconds(60)).until(() -> rc() == null);
    for (ArmStatus arm : done.getStatus().arms) {
      assertThat(processesOf(arm.runId)).isEmpty();
    }
  }

  @Test
  void deletingMidRunCancelsTheJobAndItsProcesses() throws Exception {
    applyExample();
    await().atMost(Duration.ofMinutes(2)).until(() -> {
      RouterComparison rc = rc();
      return rc != null && rc.getStatus() != null && rc.getStatus().arms.stream()
          .anyMatch(a -> "sgl-router".equals(a.name) && a.router != null && a.router.ready && a.jobId != null);
    });
    ArmStatus running = rc().getStatus().arms.stream().filter(a -> a.name.equals("sgl-router")).findFirst().orElseThrow();
    assertThat(processesOf(running.runId)).isNotEmpty();
    client.resource(rc()).delete();
    await().atMost(Duration.ofSeconds(90)).until(() -> rc() == null);
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(run(List.of("scontrol", "-o", "show", "job", running.jobId))).contains("JobState=CANCELLED"));
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(processesOf(running.runId)).isEmpty());
  }

  /** The end of every log of the arms that failed, for the assertion message. */
  static String logsOfFailedArms(RouterComparison rc) throws Exception {
    StringBuilder out = new StringBuilder();
    for (ArmStatus arm : rc.getStatus().arms) {
      if (!"Failed".equals(arm.phase) || arm.runDir == null) {
        continue;
      }
      try (var logs = Files.list(Path.of(arm.runDir, "logs"))) {
        for (Path log : logs.sorted().toList()) {
          List<String> lines = Files.readAllLines(log);
          out.append("\n--- ").append(log).append('\n')
              .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
        }
      }
    }
    return out.toString();
  }

  /** Process ids whose environment carries the run's SRT_RUN_ID. */
  static List<String> processesOf(String runId) throws Exception {
    List<String> pids = new ArrayList<>();
    String needle = "SRT_RUN_ID=" + runId;
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
        try {
          String env = new String(Files.readAllBytes(p.resolve("environ")), StandardCharsets.UTF_8);
          if (List.of(env.split("\0")).contains(needle)) {
            pids.add(p.getFileName().toString());
          }
        } catch (java.io.IOException gone) {
          // The process ended while we looked.
        }
      }
    }
    return pids;
  }

  static String run(List<String> command) throws Exception {
    return EmulatedSlurmHost.run(command);
  }
}
