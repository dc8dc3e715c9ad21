package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.Runs;
import dev.srt.operator.verdict.Cells;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Kubernetes Events for what changed between two statuses of a comparison, each recorded once, on
 * the transition it reports (docs/operator.md#events).
 */
final class TransitionEvents implements StatusListener {
  private final EventRecorder events;

  TransitionEvents(EventRecorder events) {
    this.events = events;
  }

  @Override
  public void changed(RouterComparison rc, RouterComparisonStatus old, RouterComparisonStatus next) {
    if (!isFalse(old, StatusAggregator.SPEC_VALID) && isFalse(next, StatusAggregator.SPEC_VALID)) {
      events.record(rc, EventReason.SpecInvalid, null, Conditions.find(next.conditions, StatusAggregator.SPEC_VALID).getMessage());
    }
    if (!isFalse(old, StatusAggregator.CLUSTER_REACHABLE) && isFalse(next, StatusAggregator.CLUSTER_REACHABLE)) {
      events.record(rc, EventReason.ClusterUnreachable, null, Conditions.find(next.conditions, StatusAggregator.CLUSTER_REACHABLE).getMessage());
    }
    if (hasReason(next, StatusAggregator.DEGRADED, ConditionReason.SecretEnvMissing)
        && !hasReason(old, StatusAggregator.DEGRADED, ConditionReason.SecretEnvMissing)) {
      events.record(rc, EventReason.SecretEnvMissing, null, Conditions.find(next.conditions, StatusAggregator.DEGRADED).getMessage());
    }
    if (!isTrue(old, StatusAggregator.FACTS_DIFFER) && isTrue(next, StatusAggregator.FACTS_DIFFER)) {
      events.record(rc, EventReason.FactsDiffer, null, Conditions.find(next.conditions, StatusAggregator.FACTS_DIFFER).getMessage());
    }
    if (!isTrue(old, StatusAggregator.COMPLETE) && isTrue(next, StatusAggregator.COMPLETE)) {
      events.record(rc, EventReason.Complete, null, Conditions.find(next.conditions, StatusAggregator.COMPLETE).getMessage()
          + verdictLine(next));
    }
    Map<String, ArmStatus> before = new HashMap<>();
    if (old != null && old.arms != null) {
      old.arms.forEach(a -> before.put(a.name, a));
    }
    for (ArmStatus a : next.arms) {
      ArmStatus b = before.get(a.name);
      boolean sameRun = b != null && Objects.equals(b.runId, a.runId);
      ArmPhase was = sameRun ? b.phase() : ArmPhase.Pending;
      ArmPhase is = a.phase();
      String subject = a.name;
      if (was == ArmPhase.Pending && is != ArmPhase.Pending && a.jobId != null) {
        events.record(rc, EventReason.Submitted, subject, "arm " + a.name + ": run " + a.runId + " submitted as job " + a.jobId);
      }
      boolean workersWere = sameRun && b.workers != null && b.workers.total > 0 && b.workers.ready == b.workers.total;
      if (!workersWere && a.workers != null && a.workers.total > 0 && a.workers.ready == a.workers.total) {
        events.record(rc, EventReason.WorkersReady, subject, "arm " + a.name + ": all " + a.workers.total + " workers healthy");
      }
      boolean routerWas = sameRun && b.router != null && b.router.ready;
      if (!routerWas && a.router != null && a.router.ready) {
        events.record(rc, EventReason.RouterReady, subject, "arm " + a.name + ": router ready at " + a.router.url);
      }
      // A run the operator cancelled was reported when it was cancelled (with its reason).
      if (!was.terminal() && is.terminal() && a.runId != null && !(is == ArmPhase.Cancelled && a.reason != null)) {
        EventReason reason = is == ArmPhase.Succeeded ? EventReason.Succeeded
            : is == ArmPhase.Cancelled ? EventReason.Cancelled : EventReason.Failed;
        String detail = is == ArmPhase.Succeeded ? ResultsLine.of(a.results)
            : is == ArmPhase.Failed && a.reason != null ? a.reason + ": " + a.message : a.message;
        int repetitions = rc.getSpec() == null ? 1 : Runs.repetitions(rc.getSpec());
        String which = repetitions > 1 && a.repetition != null ? " run " + a.repetition + "/" + repetitions : "";
        events.record(rc, reason, subject, "arm " + a.name + which + ": " + is.name().toLowerCase()
            + (detail == null || detail.isEmpty() ? "" : ": " + detail));
      }
    }
  }

  /** {@code ; against a: b req/s +3.1% [-2.0, +8.2] inconclusive, ...}: the verdicts in one line. */
  static String verdictLine(RouterComparisonStatus s) {
    if (s.verdicts == null || s.verdicts.isEmpty()) {
      return "";
    }
    return "; against " + s.baseline + ": " + s.verdicts.stream().map(v -> v.arm + " " + Cells.verdictLine(v))
        .collect(java.util.stream.Collectors.joining(", "));
  }

  private static boolean isTrue(RouterComparisonStatus s, String type) {
    if (s == null || s.conditions == null) {
      return false;
    }
    var c = Conditions.find(s.conditions, type);
    return c != null && Conditions.TRUE.equals(c.getStatus());
  }

  static boolean hasReason(RouterComparisonStatus s, String type, ConditionReason reason) {
    var c = s == null || s.conditions == null ? null : Conditions.find(s.conditions, type);
    return c != null && reason.name().equals(c.getReason());
  }

  static boolean isFalse(RouterComparisonStatus s, String type) {
    if (s == null || s.conditions == null) {
      return false;
    }
    var c = Conditions.find(s.conditions, type);
    return c != null && Conditions.FALSE.equals(c.getStatus());
  }
}
