package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.Capacity;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each arm against the baseline: on every verdict metric at every load level, and on capacity at
 * the SLO. Every number of a verdict comes from one test ({@link WelchRatioTest}): the relative
 * difference of the means with its 95% interval (Fieller's, the ratios Welch's test does not
 * reject), Welch's p-value, the p-value adjusted by Holm–Bonferroni over its family (so that many
 * metrics, arms and levels do not make a "better" by chance likely; capacity verdicts are a family
 * of their own, the per-level verdicts another), the level that adjustment decided it at, and the
 * smallest difference the runs could have detected at that level. The word: better or worse when
 * the adjusted p is at most 0.05 (by the metric's direction), equivalent when the 90% interval lies
 * within the equivalence margin (two one-sided tests), inconclusive otherwise, with a note when the
 * 95% interval excludes 0 all the same; not-comparable when the runs cannot be compared.
 */
public final class Verdicts {
  public static final String BETTER = "better";
  public static final String WORSE = "worse";
  public static final String EQUIVALENT = "equivalent";
  public static final String INCONCLUSIVE = "inconclusive";
  public static final String NOT_COMPARABLE = "not-comparable";
  /** The metric name of the verdict on capacity at the SLO. */
  public static final String CAPACITY = "capacity";

  private Verdicts() {}

  /** A verdict being made: its samples' test until the family's p-values are adjusted (null when not tested). */
  private record Pending(Verdict verdict, Metric.Direction direction, boolean higher, boolean equivalent, WelchRatioTest test) {}

  /**
   * @param runs every arm's finished runs, in arm order
   */
  public static List<Verdict> of(Map<String, List<ArmRun>> runs, VerdictSettings settings) {
    List<Pending> pending = new ArrayList<>();
    String baseline = settings.baseline();
    if (baseline == null || !runs.containsKey(baseline)) {
      return List.of();
    }
    List<ArmRun> baseRuns = runs.get(baseline);
    for (Map.Entry<String, List<ArmRun>> arm : runs.entrySet()) {
      if (arm.getKey().equals(baseline)) {
        continue;
      }
      if (settings.judgesCapacity()) {
        pending.add(capacity(arm.getKey(), arm.getValue(), baseRuns, settings));
      }
      for (Double level : settings.levels()) {
        List<BenchmarkResults> a = Summaries.results(arm.getValue(), level);
        List<BenchmarkResults> b = Summaries.results(baseRuns, level);
        for (Metric metric : settings.metrics()) {
          Verdict v = verdict(arm.getKey(), baseline, metric.key(), level);
          String notComparable = failedTooMany(arm.getKey(), a, baseline, b, settings.maxFailedRatio());
          pending.add(judge(v, Summaries.values(a, metric), Summaries.values(b, metric), metric.direction, notComparable, settings));
        }
      }
    }
    return decide(pending);
  }

  private static Verdict verdict(String arm, String baseline, String metric, Double level) {
    Verdict v = new Verdict();
    v.arm = arm;
    v.baseline = baseline;
    v.metric = metric;
    v.level = level;
    return v;
  }

  private static Pending capacity(String arm, List<ArmRun> armRuns, List<ArmRun> baseRuns, VerdictSettings settings) {
    Verdict v = verdict(arm, settings.baseline(), CAPACITY, null);
    List<Capacities.RunCapacity> a = Capacities.perRun(armRuns, settings.attainment());
    List<Capacities.RunCapacity> b = Capacities.perRun(baseRuns, settings.attainment());
    String notComparable = null;
    for (var side : List.of(Map.entry(arm, a), Map.entry(settings.baseline(), b))) {
      List<Capacities.RunCapacity> beyond = side.getValue().stream().filter(r -> r.bound() != null).toList();
      if (notComparable == null && !beyond.isEmpty()) {
        notComparable = side.getKey() + "'s capacity is " + (Capacity.BELOW.equals(beyond.get(0).bound()) ? "below the lowest level"
            : "above the highest level") + " (" + beyond.get(0).text() + ") in " + beyond.size() + " of " + side.getValue().size()
            + " runs: extend the ladder";
      }
    }
    if (notComparable != null) {
      // runs beyond the ladder have no value to test: say so before counting the runs that have one
      v.verdict = NOT_COMPARABLE;
      v.reason = notComparable;
      return new Pending(v, Metric.Direction.HIGHER, false, false, null);
    }
    return judge(v, Capacities.values(a), Capacities.values(b), Metric.Direction.HIGHER, null, settings);
  }

  /** Tests one metric's samples; the word waits for the family's adjusted p-values. */
  static Pending judge(Verdict v, double[] a, double[] b, Metric.Direction direction, String notComparable, VerdictSettings settings) {
    double mb = b.length == 0 ? 0 : Statistics.mean(b);
    if (a.length > 0 && b.length > 0 && mb != 0) {
      v.deltaPct = (Statistics.mean(a) - mb) / mb * 100;
    }
    String reason = tooFewRuns(v.arm, a, v.baseline, b);
    if (reason == null) {
      reason = notComparable;
    }
    if (reason == null && mb == 0) {
      reason = v.baseline + "'s mean is 0: no relative difference";
    }
    if (reason == null) {
      reason = noSpread(v, a, b);
    }
    WelchRatioTest test = reason == null ? new WelchRatioTest(a, b) : null;
    Statistics.Interval ci = test == null ? null : test.ratioPct(Statistics.LEVEL);
    if (reason == null && ci == null) {
      reason = v.baseline + "'s runs do not tell its mean from 0 at 95%: the relative difference has no upper bound";
    }
    if (reason != null) {
      v.verdict = NOT_COMPARABLE;
      v.reason = reason;
      return new Pending(v, direction, false, false, null);
    }
    v.ci95Pct = ci.asList();
    v.pValue = test.pValue();
    // two one-sided tests at 5% reject both margins exactly when the 90% interval lies within them
    Statistics.Interval ci90 = test.ratioPct(1 - 2 * Statistics.ALPHA);
    boolean equivalent = ci90 != null && ci90.within(settings.equivalenceMargin() * 100);
    return new Pending(v, direction, Statistics.mean(a) > mb, equivalent, test);
  }

  /**
   * Why two samples without run-to-run spread cannot be judged, or null: with neither varying, a
   * t-test divides their difference by (nearly) 0 and calls any difference certain, though the runs
   * never measured the noise it should be weighed against. One side without spread is judged: the
   * other's spread is the noise.
   */
  private static String noSpread(Verdict v, double[] a, double[] b) {
    if (Statistics.hasSpread(a) || Statistics.hasSpread(b)) {
      return null;
    }
    return "no spread between runs: " + v.arm + "'s " + a.length + " runs all measured " + Capacities.format(Statistics.mean(a)) + " and "
        + v.baseline + "'s " + b.length + " all " + Capacities.format(Statistics.mean(b))
        + ", so there is no run-to-run noise to weigh the difference against";
  }

  /**
   * Adjusts each family's p-values (Holm) and gives each tested verdict its word. Capacity is the
   * question a comparison is run for, so its verdicts (one per arm) are one family, adjusted among
   * themselves; the per-level verdicts (metrics × arms × levels) are the other. Folding capacity into
   * the per-level family would ask a 3-run capacity difference to beat 25 other tests before it
   * counts, and the first question would seldom get an answer.
   */
  private static List<Verdict> decide(List<Pending> pending) {
    adjust(pending.stream().filter(p -> CAPACITY.equals(p.verdict().metric)).toList());
    adjust(pending.stream().filter(p -> !CAPACITY.equals(p.verdict().metric)).toList());
    return pending.stream().map(Pending::verdict).toList();
  }

  private static void adjust(List<Pending> family) {
    List<Pending> tested = family.stream().filter(p -> p.test() != null).toList();
    double[] p = tested.stream().mapToDouble(t -> t.verdict().pValue).toArray();
    double[] adjusted = Holm.adjust(p);
    double[] levels = Holm.decisionLevels(p, Statistics.ALPHA);
    for (int i = 0; i < tested.size(); i++) {
      Pending t = tested.get(i);
      Verdict v = t.verdict();
      v.pAdjusted = adjusted[i];
      v.alpha = levels[i];
      // at the level the word is decided at: an observed difference this large is always significant
      v.mdePct = t.test().detectablePct(levels[i]);
      if (adjusted[i] <= Statistics.ALPHA) {
        v.verdict = t.higher() == (t.direction() == Metric.Direction.HIGHER) ? BETTER : WORSE;
      } else {
        v.verdict = t.equivalent() ? EQUIVALENT : INCONCLUSIVE;
        if (!new Statistics.Interval(v.ci95Pct.get(0), v.ci95Pct.get(1)).spansZero()) {
          // the 95% interval is the raw test's: outside 0 with p < 0.05, yet Holm's family level is stricter
          v.note = "not significant after Holm: p " + Cells.p(v.pValue) + ", Holm " + Cells.p(v.pAdjusted);
        }
      }
    }
  }

  private static String tooFewRuns(String arm, double[] a, String baseline, double[] b) {
    for (var side : List.of(Map.entry(arm, a), Map.entry(baseline, b))) {
      int n = side.getValue().length;
      if (n < 2) {
        return side.getKey() + " has " + n + " succeeded run" + (n == 1 ? "" : "s") + " with this metric (2 are needed)";
      }
    }
    return null;
  }

  private static String failedTooMany(String arm, List<BenchmarkResults> a, String baseline, List<BenchmarkResults> b,
      double maxFailedRatio) {
    for (var side : List.of(Map.entry(arm, a), Map.entry(baseline, b))) {
      Double ratio = Summaries.failedRatio(side.getValue());
      if (ratio != null && ratio > maxFailedRatio) {
        return String.format(Locale.ROOT, "%s failed %.1f%% of its requests (more than maxFailedRatio %.1f%%)", side.getKey(),
            ratio * 100, maxFailedRatio * 100);
      }
    }
    return null;
  }
}
