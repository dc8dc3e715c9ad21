package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmPhase;
import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.api.RouterStatus;
import dev.srt.operator.api.WorkerCount;
import dev.srt.operator.config.Problem;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import dev.srt.operator.reconcile.StatusAggregator.Inputs;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusAggregatorTest {
  static final Instant T0 = Instant.parse("2026-11-30T06:00:00Z");
  static final Instant T1 = Instant.parse("2026-11-30T06:05:00Z");
  static final ClusterState UP = new ClusterState(true, dev.srt.operator.api.ConditionReason.Connected, "root@127.0.0.1:2222");

  static ArmStatus arm(String name, ArmPhase phase, int ready, boolean routerReady) {
    ArmStatus a = new ArmStatus();
    a.name = name;
    a.phase = phase.name();
    a.workers = new WorkerCount(ready, 2);
    a.router = new RouterStatus();
    a.router.ready = routerReady;
    return a;
  }

  static Condition condition(RouterComparisonStatus s, String type) {
    return Conditions.find(s.conditions, type);
  }

  @Test
  void runningArmThatServesIsReady() {
    var arms = List.of(arm("a", ArmPhase.Succeeded, 2, true), arm("b", ArmPhase.Benchmarking, 2, true), arm("c", ArmPhase.Pending, 0, false));
    RouterComparisonStatus s = StatusAggregator.aggregate(null, new Inputs(3, List.of(), UP, false, arms, "b", null), T0);
    assertThat(s.observedGeneration).isEqualTo(3);
    assertThat(s.phase).isEqualTo("Running");
    assertThat(s.armsSummary).isEqualTo("1/3");
    assertThat(condition(s, "Ready").getStatus()).isEqualTo("True");
    assertThat(condition(s, "Ready").getReason()).isEqualTo("ArmServing");
    assertThat(condition(s, "Complete").getReason()).isEqualTo("ArmsRemaining");
    assertThat(condition(s, "Degraded").getStatus()).isEqualTo("False");
    assertThat(s.conditions).allSatisfy(c -> assertThat(c.getObservedGeneration()).isEqualTo(3L));
  }

  @Test
  void startingArmIsNotReadyAndSaysWhy() {
    var arms = List.of(arm("a", ArmPhase.Starting, 1, true));
    RouterComparisonStatus s = StatusAggregator.aggregate(null, new Inputs(1, List.of(), UP, false, arms, "a", null), T0);
    assertThat(condition(s, "Ready").getStatus()).isEqualTo("False");
    assertThat(condition(s, "Ready").getReason()).isEqualTo("ArmStarting");
    assertThat(condition(s, "Ready").getMessage()).contains("1/2 workers ready");
  }

  @Test
  void allSucceededIsComplete() {
    var arms = List.of(arm("a", ArmPhase.Succeeded, 2, true), arm("b", ArmPhase.Succeeded, 2, true));
    RouterComparisonStatus s = StatusAggregator.aggregate(null, new Inputs(1, List.of(), UP, false, arms, null, null), T0);
    assertThat(s.phase).isEqualTo("Succeeded");
    assertThat(s.armsSummary).isEqualTo("2/2");
    assertThat(condition(s, "Complete").getStatus()).isEqualTo("True");
    // a finished comparison reads as good: Ready, as kstatus-based tools and Argo CD wait for it
    assertThat(condition(s, "Ready").getStatus()).isEqualTo("True");
    assertThat(condition(s, "Ready").getReason()).isEqualTo("AllArmsSucceeded");
    assertThat(condition(s, "Failed").getStatus()).isEqualTo("False");
  }

  @Test
  void failedArmDegradesAndInvalidSpecSaysAllProblems() {
    ArmStatus failed = arm("a", ArmPhase.Failed, 1, false);
    failed.message = "ProcessExited: worker-1 exited with code 1";
    RouterComparisonStatus s = StatusAggregator.aggregate(null, new Inputs(1, List.of(), UP, false, List.of(failed, arm("b", ArmPhase.Succeeded, 2, true)), null, null), T0);
    assertThat(s.phase).isEqualTo("Failed");
    assertThat(condition(s, "Degraded").getReason()).isEqualTo("ArmFailed");
    assertThat(condition(s, "Degraded").getMessage()).contains("worker-1 exited");
    assertThat(condition(s, "Complete").getReason()).isEqualTo("ArmFailed");
    // as a Job: Failed=True at the end, and not Ready
    assertThat(condition(s, "Failed").getStatus()).isEqualTo("True");
    assertThat(condition(s, "Failed").getMessage()).contains("a failed");
    assertThat(condition(s, "Ready").getStatus()).isEqualTo("False");
    assertThat(condition(s, "Ready").getReason()).isEqualTo("ArmFailed");

    var problems = List.of(Problem.error("spec.arms[0].name", "duplicate arm name a"), Problem.error("spec.dynamo.hash", "must be a full 40-hex commit"));
    RouterComparisonStatus invalid = StatusAggregator.aggregate(null, new Inputs(2, problems, UP, false, List.of(arm("a", ArmPhase.Pending, 0, false)), null, null), T0);
    assertThat(invalid.phase).isEqualTo("Invalid");
    assertThat(condition(invalid, "SpecValid").getStatus()).isEqualTo("False");
    assertThat(condition(invalid, "SpecValid").getMessage()).contains("spec.arms[0].name: duplicate arm name a").contains("spec.dynamo.hash: must be");
  }

  @Test
  void unreachableClusterDegradesOnlyWithJobsInFlight() {
    ClusterState down = new ClusterState(false, dev.srt.operator.api.ConditionReason.Unreachable, "connect timed out");
    RouterComparisonStatus idle = StatusAggregator.aggregate(null, new Inputs(1, List.of(), down, false, List.of(arm("a", ArmPhase.Pending, 0, false)), null, null), T0);
    assertThat(condition(idle, "Degraded").getStatus()).isEqualTo("False");
    assertThat(condition(idle, "ClusterReachable").getReason()).isEqualTo("Unreachable");
    RouterComparisonStatus busy = StatusAggregator.aggregate(null, new Inputs(1, List.of(), down, false, List.of(arm("a", ArmPhase.Starting, 0, false)), "a", null), T0);
    assertThat(condition(busy, "Degraded").getReason()).isEqualTo("ClusterUnreachable");
  }

  @Test
  void transitionTimeMovesOnlyWhenStatusFlips() {
    var starting = List.of(arm("a", ArmPhase.Starting, 1, false));
    RouterComparisonStatus first = StatusAggregator.aggregate(null, new Inputs(1, List.of(), UP, false, starting, "a", null), T0);
    var stillStarting = List.of(arm("a", ArmPhase.Starting, 2, false));
    RouterComparisonStatus second = StatusAggregator.aggregate(first, new Inputs(1, List.of(), UP, false, stillStarting, "a", null), T1);
    assertThat(condition(second, "Ready").getLastTransitionTime()).isEqualTo(T0.toString());
    assertThat(condition(second, "Ready").getMessage()).contains("2/2 workers ready");
    RouterComparisonStatus third = StatusAggregator.aggregate(second, new Inputs(1, List.of(), UP, false, List.of(arm("a", ArmPhase.Ready, 2, true)), "a", null), T1);
    assertThat(condition(third, "Ready").getLastTransitionTime()).isEqualTo(T1.toString());
    // The previous status object is not modified.
    assertThat(condition(first, "Ready").getMessage()).contains("1/2");
  }

  @Test
  void suspendedHoldsOnceNothingRuns() {
    RouterComparisonStatus s = StatusAggregator.aggregate(null, new Inputs(4, List.of(), UP, true, List.of(arm("a", ArmPhase.Cancelled, 0, false)), null, null), T0);
    assertThat(s.phase).isEqualTo("Suspended");
    assertThat(condition(s, "Ready").getReason()).isEqualTo("Suspended");
  }
}
