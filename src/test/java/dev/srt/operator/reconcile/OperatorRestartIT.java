package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.testinfra.TestHosts;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator killed with SIGKILL at every phase boundary of a run and started again: each time
 * the new process finds the run where the old one left it, and in the end every arm ran exactly
 * once (one run directory, one Slurm job), the status converged to Complete with results, and
 * every transition was reported once.
 *
 * <p>{@code srt-operator operator} runs as a process against the CRUD mock API server, which lives
 * in this JVM and so outlives every operator; the GpuCluster is partition {@code debug} of the test
 * Slurm over the test sshd, with the emulator's shims behind {@link HoldPoints}, which keep the run
 * in each phase until the operator has been killed and replaced. The run is queued at first behind
 * a job of the test's that holds the node, so that it is submitted but not started.
 */
class OperatorRestartIT {
  static final String NS = "bench";
  /** Slurm lists finished jobs for an hour: a name of its own keeps an earlier run's jobs out of the counts. */
  static final String NAME = "restarts-" + dev.srt.operator.run.Runs.newRunId().substring(1, 7);
  static final String FIRST = "cache-aware";
  static final String SECOND = "round-robin";
  static final Duration PHASE_TIMEOUT = Duration.ofMinutes(2);

  MockApiServer api;
  KubernetesClient client;
  EmulatedSlurmHost emulated;
  Path base;
  Path kubeconfig;
  HoldPoints holds;
  String blocker;
  OperatorProcess operator;
  final List<OperatorProcess> incarnations = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    TestHosts.requireSlurm();
    assertThat(EmulatedSlurmHost.JAR).as("the shaded jar (mvn package) runs the operator and the emulator").exists();
    emulated = EmulatedSlurmHost.install("srt-op-restart-");
    base = emulated.base;
    holds = HoldPoints.install(base.resolve("holds"), emulated.emulatorBin());
    api = new MockApiServer();
    client = api.client;
    kubeconfig = base.resolve("kubeconfig");
    Files.writeString(kubeconfig, api.kubeconfig(NS));
    EmulatedSlurmHost.createSshSecret(client, NS, "restart-box-ssh");
  }

  @AfterEach
  void stop() throws Exception {
    try {
      if (operator != null && operator.process.isAlive()) {
        operator.kill();
      }
      holds.releaseAll();
      if (blocker != null) {
        host(List.of("scancel", blocker));
      }
      // A failed test leaves its jobs queued or running: cancel them, by the comment every run's job carries.
      for (String[] job : jobs()) {
        host(List.of("scancel", job[0]));
      }
    } finally {
      if (api != null) {
        api.close();
      }
      if (emulated != null) {
        emulated.remove();
      }
    }
  }

  @Test
  void killedAtEveryPhaseBoundaryEveryArmRunsOnceAndTheStatusConverges() throws Exception {
    try {
      blocker = host(List.of("sbatch", "--parsable", "-p", TestHosts.slurmPartition(), "--exclusive", "--time=10",
          "--job-name=srt-restart-it-blocker", "--output=/dev/null", "--wrap", "sleep 600")).strip();
      await().atMost(Duration.ofSeconds(60)).until(() -> host(List.of("squeue", "-h", "-j", blocker, "-o", "%T")).strip().equals("RUNNING"));
      createClusterAndComparison();
      operator = startOperator();

      // Submitted (1): the run id is recorded, the job may or may not be submitted yet.
      await().atMost(PHASE_TIMEOUT).pollInterval(Duration.ofMillis(20)).until(() -> arm(FIRST) != null && arm(FIRST).runId != null);
      String runId = arm(FIRST).runId;
      restart();
      await().atMost(PHASE_TIMEOUT).until(() -> arm(FIRST).jobId != null && arm(FIRST).message != null
          && arm(FIRST).message.startsWith("pending"));
      ArmStatus queued = arm(FIRST);
      assertThat(queued.runId).as("the recorded run id is the one submitted").isEqualTo(runId);
      assertThat(queued.phase).isEqualTo(ArmPhase.Submitted.name());
      String jobId = queued.jobId;
      assertOneRunOnTheHost(FIRST, runId, jobId);

      // Submitted (2): the job is queued on Slurm, behind the test's job.
      restartAndSettle();
      assertStays(ArmPhase.Submitted, runId, jobId);
      host(List.of("scancel", blocker));

      for (String point : HoldPoints.ALL) {
        ArmPhase phase = ArmPhase.valueOf(Character.toUpperCase(point.charAt(0)) + point.substring(1));
        await().atMost(PHASE_TIMEOUT).until(() -> arm(FIRST).phase() == phase);
        await("the run waits at " + point).atMost(Duration.ofSeconds(30)).until(() -> holds.reached(point));
        assertThat(hostEvents(arm(FIRST))).as("the host's events").anySatisfy(e -> assertThat(e).contains("\"phase\":\"" + point + "\""));
        restartAndSettle();
        assertStays(phase, runId, jobId);
        assertOneRunOnTheHost(FIRST, runId, jobId);
        if (!point.equals(HoldPoints.BENCHMARKING)) {
          holds.release(point);
        }
      }

      // Finished but not recorded: the operator is frozen (alive, with what it knows) while the run
      // ends on the host, then killed before it could write that down.
      operator.freeze();
      holds.release(HoldPoints.BENCHMARKING);
      await().atMost(PHASE_TIMEOUT).until(() -> hostEvents(arm(FIRST)).stream().anyMatch(e -> e.contains("\"event\":\"finished\"")));
      assertThat(arm(FIRST).phase).as("not recorded yet").isEqualTo(ArmPhase.Benchmarking.name());
      restart();
      await().atMost(PHASE_TIMEOUT).until(() -> arm(FIRST).phase().terminal());
      assertThat(arm(FIRST).phase).as(arm(FIRST).message).isEqualTo(ArmPhase.Succeeded.name());
      assertThat(arm(FIRST).results).as("the results read by the new operator").isNotNull();
      await().atMost(Duration.ofMinutes(3)).until(() -> rc().getStatus() != null
          && (Conditions.isTrue(rc().getStatus().conditions, StatusAggregator.COMPLETE) || "Failed".equals(rc().getStatus().phase)));

      RouterComparison done = rc();
      assertThat(done.getStatus().phase).as(Mappers.yaml().writeValueAsString(done.getStatus())).isEqualTo("Succeeded");
      for (ArmStatus a : done.getStatus().arms) {
        assertThat(a.phase).isEqualTo("Succeeded");
        assertThat(a.results.requestThroughput).as(a.name + " results").isNotNull();
        assertThat(a.runs).as(a.name + " runs").hasSize(1);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(host(List.of("squeue", "--states=all", "-h", "-j", a.jobId, "-o", "%T")).strip()).isEqualTo("COMPLETED"));
        assertOneRunOnTheHost(a.name, a.runId, a.jobId);
      }
      assertThat(arm(FIRST).runId).isEqualTo(runId);
      assertThat(arm(FIRST).jobId).isEqualTo(jobId);
      assertThat(jobs()).as("the comparison's Slurm jobs").hasSize(2);
      assertEachTransitionReportedOnce();
    } catch (Throwable t) {
      for (OperatorProcess p : incarnations) {
        System.out.println("---- " + p.log + "\n" + p.output());
      }
      throw t;
    }
  }

  void createClusterAndComparison() throws Exception {
    String yaml = emulated.clusterYaml("restart-box", "restart-box-ssh", List.of(holds.bin()), "1s") + """
        ---
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: %s}
        spec:
          clusterRef: {name: restart-box}
          model: {path: /models/Qwen3-32B-FP8, servedModelName: Qwen/Qwen3-32B-FP8}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
          backend:
            type: sglang
            args: {tensor-parallel-size: 4, page-size: 64, enable-metrics: true}
          observability: {enabled: true}
          healthCheck: {timeout: 3m, interval: 1s}
          workload:
            tool: bench-serving
            args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 32}
          arms:
          - name: %s
            frontend: {type: sgl-router, source: /src/sglang/experimental/sgl-router, args: {policy: cache_aware}}
          - name: %s
            frontend: {type: sgl-router, source: /src/sglang/experimental/sgl-router, args: {policy: round_robin}}
        """.formatted(NAME, FIRST, SECOND);
    EmulatedSlurmHost.create(client, NS, "restarts.yaml", yaml);
  }

  OperatorProcess startOperator() throws Exception {
    OperatorProcess p = OperatorProcess.start(kubeconfig, NS, base.resolve("operator-" + incarnations.size() + ".log"),
        "--starting-poll-interval", "500ms");
    incarnations.add(p);
    return p;
  }

  /** SIGKILL, then a new operator. */
  void restart() throws Exception {
    assertThat(operator.kill()).as("exit status of the killed operator (128 + SIGKILL)").isEqualTo(OperatorProcess.KILLED);
    operator = startOperator();
  }

  /** {@link #restart()}, then waits until the new operator has looked at the host. */
  void restartAndSettle() throws Exception {
    restart();
    OperatorProcess current = operator;
    await().atMost(PHASE_TIMEOUT).until(() -> current.polls() > 0);
  }

  /** The first arm keeps its run and its phase for a while after a restart: nothing regressed, nothing resubmitted. */
  void assertStays(ArmPhase phase, String runId, String jobId) {
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      ArmStatus a = arm(FIRST);
      assertThat(a.phase).as(a.message).isEqualTo(phase.name());
      assertThat(a.runId).isEqualTo(runId);
      assertThat(a.jobId).isEqualTo(jobId);
    });
  }

  /** One run directory for the arm, the run's, and one Slurm job for it, the recorded one. */
  void assertOneRunOnTheHost(String arm, String runId, String jobId) throws Exception {
    try (Stream<Path> dirs = Files.list(base.resolve("work").resolve(NS).resolve(NAME).resolve(arm))) {
      assertThat(dirs.map(d -> d.getFileName().toString()).toList()).as("run directories of " + arm).containsExactly(runId);
    }
    List<String> ids = jobs().stream().filter(j -> j[1].equals(new RunRef(NS, NAME, arm, runId).marker())).map(j -> j[0]).toList();
    assertThat(ids).as("Slurm jobs of run " + runId).containsExactly(jobId);
    assertThat(jobs()).as("Slurm jobs of arm " + arm).filteredOn(j -> j[1].startsWith("srt-operator:" + NS + "/" + NAME + "/" + arm + "/"))
        .hasSize(1);
  }

  void assertEachTransitionReportedOnce() {
    List<Event> events = client.v1().events().inNamespace(NS).list().getItems();
    for (String arm : List.of(FIRST, SECOND)) {
      for (EventReason reason : List.of(EventReason.Submitted, EventReason.WorkersReady, EventReason.RouterReady, EventReason.Succeeded)) {
        assertThat(events).as(reason + " events of " + arm)
            .filteredOn(e -> reason.name().equals(e.getReason()) && e.getMessage().startsWith("arm " + arm + ":"))
            .singleElement().satisfies(e -> assertThat(e.getCount()).as(e.getMessage()).isEqualTo(1));
      }
    }
    assertThat(events).filteredOn(e -> EventReason.Submitted.name().equals(e.getReason()) && e.getMessage().startsWith("arm " + FIRST + ":"))
        .singleElement().satisfies(e -> assertThat(e.getMessage()).contains(arm(FIRST).runId, arm(FIRST).jobId));
    assertThat(events).filteredOn(e -> EventReason.Complete.name().equals(e.getReason())).singleElement()
        .satisfies(e -> assertThat(e.getCount()).isEqualTo(1));
    assertThat(events).as("no reconcile failed").noneMatch(e -> EventReason.ReconcileFailed.name().equals(e.getReason()));
  }

  RouterComparison rc() {
    return client.resources(RouterComparison.class).inNamespace(NS).withName(NAME).get();
  }

  ArmStatus arm(String name) {
    RouterComparison rc = rc();
    if (rc == null || rc.getStatus() == null || rc.getStatus().arms == null) {
      return null;
    }
    return rc.getStatus().arms.stream().filter(a -> a.name.equals(name)).findFirst().orElse(null);
  }

  /** The lines of the run's events.jsonl on the host (this machine). */
  static List<String> hostEvents(ArmStatus a) throws Exception {
    Path file = Path.of(a.runDir, "events.jsonl");
    return Files.exists(file) ? Files.readAllLines(file) : List.of();
  }

  /** Every Slurm job (id, comment) of this comparison, finished ones included. */
  static List<String[]> jobs() throws Exception {
    String prefix = "srt-operator:" + NS + "/" + NAME + "/";
    return host(List.of("squeue", "--states=all", "-h", "-o", "%i|%k")).lines().map(l -> l.split("\\|", 2))
        .filter(f -> f.length == 2 && f[1].startsWith(prefix)).toList();
  }

  static String host(List<String> command) throws Exception {
    return EmulatedSlurmHost.run(command);
  }
}
