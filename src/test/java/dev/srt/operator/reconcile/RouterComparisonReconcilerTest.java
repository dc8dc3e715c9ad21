package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.Api;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.RunRef;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code reconcile()} and {@code cleanup()} called directly (the Flink operator's pattern), with a
 * fake host whose failures are switched on, and the Fabric8 CRUD mock for the API reads the
 * reconciler makes (its GpuCluster, Events, ConfigMaps). Status writes are captured in memory.
 */
class RouterComparisonReconcilerTest {
  static final String NS = "bench";

  MockApiServer api;
  KubernetesClient client;
  FakeHosts.State host;
  Reconciler reconciler;
  RouterComparison rc;

  /** The reconciler under test, writing status into the object the test holds. */
  final class Reconciler extends RouterComparisonReconciler {
    int statusWrites;

    Reconciler() {
      super(client, new FakeHosts(host), new ClusterPolicy(true), new EventRecorder(client), Clock.systemUTC(), Duration.ofMillis(200), new SimpleMeterRegistry(), Runnable::run);
    }

    @Override
    protected void writeStatus(RouterComparison target, io.javaoperatorsdk.operator.api.reconciler.Context<RouterComparison> context,
        RouterComparisonStatus status) {
      statusWrites++;
      target.setStatus(Mappers.json().convertValue(status, RouterComparisonStatus.class));
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    api = new MockApiServer();
    client = api.client;
    host = new FakeHosts.State();
    reconciler = new Reconciler();
    String yaml = Files.readString(Path.of("examples/router-comparison.yaml")) + "\n---\n" + """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec: {mode: slurm, transport: local, workDir: /work, gpusPerNode: 8}
        """;
    LoadedResources r = LoadedResources.parse("test.yaml", yaml);
    GpuCluster cluster = r.clusters().get(0);
    cluster.getMetadata().setNamespace(NS);
    client.resource(cluster).create();
    rc = r.comparisons().get(0);
    rc.getMetadata().setNamespace(NS);
    rc.getMetadata().setUid("uid-1");
    rc.getMetadata().setGeneration(1L);
  }

  @AfterEach
  void tearDown() {
    reconciler.close();
    api.close();
  }

  void reconcile() {
    reconciler.reconcile(rc, null);
  }

  ArmStatus arm(String name) {
    return rc.getStatus().arms.stream().filter(a -> a.name.equals(name)).findFirst().orElseThrow();
  }

  @Test
  void recordsTheRunIdFirstThenSubmitsOnceThenObserves() {
    reconcile();
    assertThat(arm("sgl-router").runId).startsWith("r").hasSize(9);
    assertThat(arm("sgl-router").jobId).isNull();
    assertThat(host.submitCalls.get()).as("nothing is submitted before the run id is recorded").isZero();

    reconcile();
    assertThat(host.submitCalls.get()).isEqualTo(1);
    assertThat(arm("sgl-router").phase).isEqualTo("Submitted");
    assertThat(arm("sgl-router").jobId).isEqualTo(host.jobs.get(host.runOf("sgl-router")));
    assertThat(arm("dynamo-kv").phase).isEqualTo("Pending");

    reconcile();
    reconcile();
    assertThat(host.submitCalls.get()).as("an in-flight run is never submitted again").isEqualTo(1);
  }

  @Test
  void aFailedSubmitKeepsTheRunIdAndRetriesIt() {
    reconcile();
    String runId = arm("sgl-router").runId;
    host.unreachable = true;
    reconcile();
    assertThat(arm("sgl-router").jobId).isNull();
    assertThat(arm("sgl-router").message).contains("submit failed");
    assertThat(Conditions.find(rc.getStatus().conditions, "ClusterReachable").getStatus()).isEqualTo("False");
    host.unreachable = false;
    reconcile();
    assertThat(arm("sgl-router").runId).isEqualTo(runId);
    assertThat(host.runs()).extracting(RunRef::runId).containsExactly(runId);
  }

  @Test
  void aSecondSubmitOfTheSameRunFindsTheJob() {
    reconcile();
    RouterComparisonStatus recorded = Mappers.json().convertValue(rc.getStatus(), RouterComparisonStatus.class);
    reconcile();
    String job = arm("sgl-router").jobId;
    // A stale cache hands the reconciler the status from before the submission.
    rc.setStatus(recorded);
    reconcile();
    assertThat(arm("sgl-router").jobId).isEqualTo(job);
    assertThat(arm("sgl-router").message).contains("found the run's existing job");
    assertThat(host.runs()).hasSize(1);
  }

  @Test
  void anInvalidSpecSubmitsNothingAndLeavesARunningArmAlone() {
    reconcile();
    reconcile();
    RunRef running = host.runOf("sgl-router");
    rc.getSpec().dynamo.hash = "not-a-commit";
    rc.getMetadata().setGeneration(2L);
    reconcile();
    assertThat(Conditions.find(rc.getStatus().conditions, "SpecValid").getStatus()).isEqualTo("False");
    assertThat(Conditions.find(rc.getStatus().conditions, "SpecValid").getMessage()).contains("spec.dynamo.hash");
    assertThat(host.cancelled).doesNotContain(running);
    assertThat(arm("sgl-router").phase).isEqualTo("Submitted");
    host.succeed(running);
    await(() -> "Succeeded".equals(arm("sgl-router").phase));
    assertThat(host.runs()).hasSize(1);
  }

  @Test
  void crashLoopBoundsAnInvalidSpecIsNeverPlannedWhileItsArmRuns() {
    // Issue 8, finding 4: planning 160 million workers exhausted the operator's memory. The planner
    // refuses such a spec (an exception here), so this fails if anything plans it.
    reconcile();
    reconcile();
    RunRef running = host.runOf("sgl-router");
    rc.getSpec().resources.aggWorkers = 160_000_000;
    rc.getMetadata().setGeneration(2L);
    reconcile();
    assertThat(Conditions.find(rc.getStatus().conditions, "SpecValid").getMessage())
        .contains("spec.resources.aggWorkers: must be at most 256 (workers of one run), not 160000000");
    assertThat(arm("sgl-router").phase).isEqualTo("Submitted");
    host.succeed(running);
    await(() -> "Succeeded".equals(arm("sgl-router").phase));
    assertThat(arm("sgl-router").endpoints).hasSize(2);
    assertThat(host.runs()).hasSize(1);
  }

  @Test
  void crashLoopBoundsAClusterBeyondTheLimitsIsNeverPlannedWhileAnArmRuns() {
    reconcile();
    reconcile();
    RunRef running = host.runOf("sgl-router");
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
        .until(() -> reconciler.observations().view(running).isPresent());
    client.resources(GpuCluster.class).inNamespace(NS).withName("h100-box").edit(c -> {
      c.getSpec().gpusPerNode = 1_000_000;
      return c;
    });
    // The run has been observed, so this reconciliation follows it; planning would throw here.
    reconcile();
    assertThat(Conditions.find(rc.getStatus().conditions, "ClusterReachable").getMessage())
        .contains("spec.gpusPerNode: must be at most 16 (GPUs per node), not 1000000");
    assertThat(arm("sgl-router").phase).isEqualTo("Submitted");
    // The run is still followed to its end; the changed cluster then makes the arm run again,
    // which waits for a valid cluster.
    host.succeed(running);
    await(() -> reconciler.observations().view(running).isEmpty());
    assertThat(arm("sgl-router").phase).isEqualTo("Pending");
    reconcile();
    assertThat(host.runs()).hasSize(1);
  }

  @Test
  void anArmWhoseSpecChangedIsCancelledAndRunsAgain() {
    reconcile();
    reconcile();
    RunRef first = host.runOf("sgl-router");
    rc.getSpec().arms.get(0).frontend.args.put("policy", "round_robin");
    rc.getMetadata().setGeneration(2L);
    reconcile();
    assertThat(host.cancelled).contains(first);
    reconcile();
    reconcile();
    assertThat(host.runOf("sgl-router")).isNotEqualTo(first);
    assertThat(host.scripts.get(host.runOf("sgl-router"))).contains("--policy round_robin");
  }

  @Test
  void cleanupCancelsInFlightRunsAndTreatsGoneAsDone() throws Exception {
    reconcile();
    reconcile();
    RunRef run = host.runOf("sgl-router");
    assertThat(reconciler.cleanup(rc, null).isRemoveFinalizer()).isTrue();
    assertThat(host.cancelled).containsExactly(run);
    // Already cancelled: a second cleanup succeeds too.
    assertThat(reconciler.cleanup(rc, null).isRemoveFinalizer()).isTrue();
  }

  @Test
  void cleanupKeepsTheFinalizerWhileTheHostIsUnreachable() throws Exception {
    reconcile();
    reconcile();
    host.unreachable = true;
    DeleteControl control = reconciler.cleanup(rc, null);
    assertThat(control.isRemoveFinalizer()).isFalse();
    assertThat(control.getScheduleDelay()).isPresent();
    assertThat(Conditions.find(rc.getStatus().conditions, "Degraded").getReason()).isEqualTo("CancelPending");
    assertThat(rc.getStatus().message).contains(Api.ORPHAN_ON_DELETE_ANNOTATION);
    host.unreachable = false;
    assertThat(reconciler.cleanup(rc, null).isRemoveFinalizer()).isTrue();
  }

  @Test
  void orphanOnDeleteLeavesJobsRunning() throws Exception {
    reconcile();
    reconcile();
    rc.getMetadata().setAnnotations(Map.of(Api.ORPHAN_ON_DELETE_ANNOTATION, "true"));
    assertThat(reconciler.cleanup(rc, null).isRemoveFinalizer()).isTrue();
    assertThat(host.cancelled).isEmpty();
  }

  @Test
  void aSucceededArmsResultsComeFromItsResultFilesEvenWhenTheHostHiccups() {
    reconcile();
    reconcile();
    RunRef run = host.runOf("sgl-router");
    host.writeResults(run, "request_throughput", "150.5", "engine_cache_hit_rate", "0.5000");
    host.resultsFailures.set(2);
    host.emitLine(run, "{\"event\":\"summary\",\"metrics\":{\"request_throughput\":\"9999\",\"evil\\\"} 1\":\"1\"}}");
    host.succeed(run);
    java.util.List<String> seen = new java.util.ArrayList<>();

    await(() -> {
      seen.add(arm("sgl-router").phase + " " + arm("sgl-router").results);
      return "Succeeded".equals(arm("sgl-router").phase);
    });

    assertThat(dev.srt.operator.base.Mappers.json().convertValue(arm("sgl-router").results, Map.class))
        .containsExactly(Map.entry("request_throughput", 150.5), Map.entry("engine_cache_hit_rate", 0.5));
    assertThat(arm("sgl-router").message).isEqualTo("benchmark finished");
    assertThat(host.resultsCalls.get()).as("two failed reads, then one that worked").isEqualTo(3);
    assertThat(seen).as("never succeeded without its results").noneMatch(s -> s.equals("Succeeded null"));
  }

  @Test
  void anArmWhoseResultFilesCannotBeReadSucceedsWithoutResultsAndSaysWhy() {
    reconcile();
    reconcile();
    RunRef run = host.runOf("sgl-router");
    host.resultsFailures.set(100);
    host.succeed(run);

    await(() -> "Succeeded".equals(arm("sgl-router").phase));

    assertThat(arm("sgl-router").results).isNull();
    assertThat(arm("sgl-router").message)
        .isEqualTo("benchmark finished; no results: cannot read the result files: fake host: connection reset");
    assertThat(host.resultsCalls.get()).isEqualTo(dev.srt.operator.run.RunTracker.RESULT_READS);
  }

  /** Reconciles until the condition holds (the poller delivers events asynchronously). */
  void await(java.util.function.BooleanSupplier condition) {
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
      reconcile();
      return condition.getAsBoolean();
    });
  }
}
