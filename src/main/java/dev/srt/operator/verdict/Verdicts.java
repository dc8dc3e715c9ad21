package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmSummary;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each arm against the baseline on every headline metric: the relative difference of the means,
 * its Welch 95% interval, and what that says, the metric's direction taken into account.
 */
public final class Verdicts {
  public static final String BETTER = "better";
  public static final String WORSE = "worse";
  public static final String NO_DIFFERENCE = "no-difference";
  public static final String NOT_COMPARABLE = "not-comparable";

  private Verdicts() {}

  /**
   * @param runs every arm's finished runs, in arm order
   * @param summaries every arm's summary (as {@link Summaries#of})
   */
  public static List<Verdict> of(Map<String, List<ArmRun>> runs, Map<String, ArmSummary> summaries, String baseline,
      double maxFailedRatio) {
    List<Verdict> out = new ArrayList<>();
    if (!runs.containsKey(baseline)) {
      return out;
    }
    for (String arm : runs.keySet()) {
      if (arm.equals(baseline)) {
        continue;
      }
      for (Metric metric : Metric.HEADLINE) {
        out.add(one(arm, baseline, metric, runs.get(arm), runs.get(baseline), summaries.get(arm), summaries.get(baseline),
            maxFailedRatio));
      }
    }
    return out;
  }

  static Verdict one(String arm, String baseline, Metric metric, List<ArmRun> armRuns, List<ArmRun> baseRuns, ArmSummary armSummary,
      ArmSummary baseSummary, double maxFailedRatio) {
    Verdict v = new Verdict();
    v.arm = arm;
    v.baseline = baseline;
    v.metric = metric.key();
    double[] a = Summaries.values(armRuns, metric);
    double[] b = Summaries.values(baseRuns, metric);
    if (a.length > 0 && b.length > 0 && Statistics.mean(b) != 0) {
      v.deltaPct = (Statistics.mean(a) - Statistics.mean(b)) / Statistics.mean(b) * 100;
    }
    String notComparable = notComparable(arm, baseline, a, b, armSummary, baseSummary, maxFailedRatio);
    if (notComparable != null) {
      v.verdict = NOT_COMPARABLE;
      v.reason = notComparable;
      return v;
    }
    Statistics.Interval ci = Statistics.welchPercent(a, b);
    v.ci95Pct = ci.asList();
    if (ci.spansZero()) {
      v.verdict = NO_DIFFERENCE;
    } else {
      boolean higher = ci.low() > 0;
      v.verdict = (higher == (metric.direction == Metric.Direction.HIGHER)) ? BETTER : WORSE;
    }
    return v;
  }

  private static String notComparable(String arm, String baseline, double[] a, double[] b, ArmSummary armSummary,
      ArmSummary baseSummary, double maxFailedRatio) {
    for (var side : List.of(Map.entry(arm, a), Map.entry(baseline, b))) {
      if (side.getValue().length < 2) {
        return side.getKey() + " has " + side.getValue().length + " succeeded run" + (side.getValue().length == 1 ? "" : "s")
            + " with this metric (2 are needed)";
      }
    }
    for (var side : List.of(Map.entry(arm, armSummary), Map.entry(baseline, baseSummary))) {
      Double ratio = side.getValue() == null ? null : side.getValue().failedRatio;
      if (ratio != null && ratio > maxFailedRatio) {
        return String.format(Locale.ROOT, "%s failed %.1f%% of its requests (more than maxFailedRatio %.1f%%)", side.getKey(),
            ratio * 100, maxFailedRatio * 100);
      }
    }
    if (Statistics.mean(b) == 0) {
      return baseline + "'s mean is 0: no relative difference";
    }
    return null;
  }
}
