package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.Runs;
import dev.srt.operator.verdict.ComparisonReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Derives a comparison's status from what a reconcile loaded and what it decided: the conditions
 * ({@link StatusAggregator}), the arms, the verdicts of their finished runs against the baseline,
 * and the seed of a randomized order. Nothing else writes status.
 */
final class StatusRecorder {
  private StatusRecorder() {}

  static RouterComparisonStatus status(ComparisonState s, Decisions d) {
    String current = d.arms.values().stream().filter(a -> a.phase().inFlight()).map(a -> a.name).findFirst().orElse(null);
    RouterComparisonStatus status = StatusAggregator.aggregate(s.rc.getStatus(), new StatusAggregator.Inputs(s.generation, s.specErrors,
        d.clusterState(s), s.rc.getSpec() != null && s.rc.getSpec().suspended(), new ArrayList<>(d.arms.values()), current, null,
        d.secretEnvProblem, d.queued, s.rc.getSpec() == null ? 1 : Runs.repetitions(s.rc.getSpec()), d.prerequisites), s.now);
    status.observedRerun = s.observedRerun;
    return withVerdicts(s, d, status);
  }

  private static RouterComparisonStatus withVerdicts(ComparisonState s, Decisions d, RouterComparisonStatus status) {
    if (s.rc.getSpec() == null || s.rc.getSpec().arms.isEmpty()) {
      return status;
    }
    List<String> names = s.rc.getSpec().arms.stream().map(a -> a.name).toList();
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    names.forEach(n -> runs.put(n, d.arms.get(n) == null || d.arms.get(n).runs == null ? List.of() : d.arms.get(n).runs));
    ComparisonReport report = ArmRuns.report(s.name, s.rc.getSpec(), names, runs);
    status.baseline = report.baseline;
    status.verdicts = runs.values().stream().anyMatch(l -> !l.isEmpty()) ? report.verdicts : new ArrayList<>();
    status.seed = Runs.randomized(s.rc.getSpec()) ? s.seed() : null;
    StatusAggregator.factsDiffer(status, report.factChecks, s.now);
    StatusBudget.ladder(status, report, s.rc.getSpec());
    StatusBudget.compact(status, s.rc.getSpec());
    return status;
  }
}
