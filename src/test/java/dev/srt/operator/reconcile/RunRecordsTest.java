package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.RunRef;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Runs are records: what was submitted (run id, hashes, planned endpoints and gates) is kept in
 * the arm's status, in {@code plan.json} and in the script's ConfigMap, and a run is observed
 * against that record, never re-planned from today's spec. An arm removed or changed while its
 * run is in flight is cancelled and reported; a reconcile that throws shows in status.
 */
class RunRecordsTest {
  static final String NS = "bench";

  MockApiServer api;
  KubernetesClient client;
  FakeHosts.State host;
  RouterComparisonReconciler reconciler;
  RouterComparison rc;

  RouterComparisonReconciler newReconciler() {
    return ComparisonFixture.reconciler(client, host, true, Duration.ofMillis(100));
  }

  @BeforeEach
  void setUp() {
    api = new MockApiServer();
    client = api.client;
    host = new FakeHosts.State();
    reconciler = newReconciler();
    rc = ComparisonFixture.comparison(client, NS, ComparisonFixture.example(), "{mode: slurm, transport: local, workDir: /work, gpusPerNode: 8}");
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

  void until(java.util.function.BooleanSupplier condition) {
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
      reconcile();
      return condition.getAsBoolean();
    });
  }

  List<String> events() {
    return client.v1().events().inNamespace(NS).list().getItems().stream().map(e -> e.getReason() + ": " + e.getMessage()).toList();
  }

  @Test
  void theSubmissionIsRecordedInStatusPlanJsonAndTheConfigMap() throws Exception {
    reconcile();
    reconcile();
    RunRef run = host.runOf("dynamo-kv") != null ? host.runOf("dynamo-kv") : host.runOf("sgl-router");
    ArmStatus a = arm(run.arm());
    assertThat(a.gates).containsExactly("workers-health", "router-ready", "canary");
    assertThat(a.endpoints).hasSize(2).allSatisfy(e -> {
      assertThat(e.node).isZero();
      assertThat(e.port).isBetween(6100, 6200);
      // Slurm: the node's address is learnt from the run, so no placeholder reaches status.
      assertThat(e.url).isNull();
    });
    String plan = host.plans.get(run);
    assertThat(Mappers.json().readTree(plan).path("arm").asText()).isEqualTo(run.arm());
    ConfigMap cm = client.configMaps().inNamespace(NS).list().getItems().get(0);
    assertThat(cm.getData()).containsEntry(ScriptConfigMaps.PLAN_KEY, plan);

    host.succeed(run);
    until(() -> "Succeeded".equals(arm(run.arm()).phase));
    assertThat(arm(run.arm()).endpoints).allSatisfy(e -> {
      assertThat(e.url).startsWith("http://127.0.0.1:").endsWith(":" + e.port);
      assertThat(e.metricsUrl).isEqualTo(e.url + "/metrics");
    });
  }

  @Test
  void anArmRemovedMidRunIsCancelledAndReportedAndTheOthersGoOn() {
    reconcile();
    reconcile();
    RunRef first = host.runOf("sgl-router");
    rc.getSpec().arms.removeIf(a -> a.name.equals("sgl-router"));
    rc.getMetadata().setGeneration(2L);
    reconcile();
    assertThat(host.cancelled).containsExactly(first);
    ArmStatus removed = arm("sgl-router");
    assertThat(removed.phase).isEqualTo("Cancelled");
    assertThat(removed.reason).isEqualTo("ArmRemoved");
    assertThat(events()).anySatisfy(e -> assertThat(e).startsWith("Cancelled: arm sgl-router: run " + first.runId() + " cancelled (ArmRemoved)"));
    assertThat(rc.getStatus().armsSummary).isEqualTo("0/2");

    until(() -> host.runOf("dynamo-kv") != null);
    host.succeed(host.runOf("dynamo-kv"));
    until(() -> host.runOf("dynamo-kv-policy") != null);
    host.succeed(host.runOf("dynamo-kv-policy"));
    until(() -> "Succeeded".equals(rc.getStatus().phase));
    assertThat(rc.getStatus().armsSummary).isEqualTo("2/2");
    // Reported until the spec changes again.
    rc.getMetadata().setGeneration(3L);
    reconcile();
    assertThat(rc.getStatus().arms).extracting(a -> a.name).doesNotContain("sgl-router");
  }

  @Test
  void anArmChangedMidRunIsCancelledWithItsReasonAndRunsAgain() {
    reconcile();
    reconcile();
    RunRef first = host.runOf("sgl-router");
    rc.getSpec().arms.get(0).frontend.args.put("policy", "round_robin");
    rc.getMetadata().setGeneration(2L);
    reconcile();
    assertThat(host.cancelled).containsExactly(first);
    assertThat(arm("sgl-router").reason).isEqualTo("SpecChanged");
    assertThat(events()).anySatisfy(e -> assertThat(e).contains("cancelled (SpecChanged)"));
    until(() -> !first.equals(host.runOf("sgl-router")));
  }

  @Test
  void anInvalidSpecMidRunIsNeverPlannedAndTheRunIsStillFollowed() {
    reconcile();
    reconcile();
    RunRef run = host.runOf("sgl-router");
    rc.getSpec().resources.aggWorkers = 160_000_000;
    rc.getMetadata().setGeneration(2L);
    reconcile();
    assertThat(Conditions.find(rc.getStatus().conditions, "SpecValid").getStatus()).isEqualTo("False");
    host.succeed(run);
    until(() -> "Succeeded".equals(arm("sgl-router").phase));
    assertThat(host.runs()).hasSize(1);
  }

  @Test
  void aReconcileThatThrowsShowsInStatusAndEvents() {
    reconcile();
    rc.getStatus().arms.get(0).phase = "Bogus";
    assertThatThrownBy(this::reconcile).hasMessageContaining("unknown arm phase Bogus");
    var control = reconciler.updateErrorStatus(rc, null, new IllegalArgumentException("unknown arm phase Bogus"));
    assertThat(control.getResource()).isPresent();
    var degraded = Conditions.find(rc.getStatus().conditions, "Degraded");
    assertThat(degraded.getStatus()).isEqualTo("True");
    assertThat(degraded.getReason()).isEqualTo("ReconcileError");
    assertThat(degraded.getMessage()).contains("unknown arm phase Bogus");
    assertThat(events()).anySatisfy(e -> assertThat(e).startsWith("ReconcileFailed: ").contains("unknown arm phase Bogus"));
  }

  @Test
  void aRestartWhileARunIsQueuedOnTheHostSubmitsNothingTwice() {
    reconcile();
    reconcile();
    RunRef run = host.runOf("sgl-router");
    host.emit(run, "run-started");
    host.emit(run, "queued", "holder", "default/other/sgl-router/r00000000 2026-12-01T00:00:00Z");
    until(() -> "Queued".equals(arm("sgl-router").phase));
    assertThat(arm("sgl-router").message).contains("queued behind default/other");

    reconciler.close();
    reconciler = newReconciler();
    for (int i = 0; i < 3; i++) {
      reconcile();
    }
    assertThat(host.runs()).containsExactly(run);
    until(() -> "Queued".equals(arm("sgl-router").phase));
  }
}
