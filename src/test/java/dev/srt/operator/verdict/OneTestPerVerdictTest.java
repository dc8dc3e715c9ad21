package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A verdict's interval, p-value and detectable effect come from one test (Welch's, inverted for the
 * ratio by Fieller) and agree with its word. Expected numbers are scipy's (scipy.stats.t) on the
 * formulas of docs/statistics.md.
 */
class OneTestPerVerdictTest {
  static final List<Metric> FOUR = List.of(Metric.REQUEST_THROUGHPUT, Metric.MEAN_TTFT_MS, Metric.P99_TTFT_MS, Metric.ENGINE_CACHE_HIT_RATE);

  static VerdictSettings settings(List<Metric> metrics) {
    return new VerdictSettings("base", 0.01, metrics, 0.02, Arrays.asList((Double) null), null, null);
  }

  /** Three runs a side: request throughput, mean TTFT (p99 twice it) and cache hit rate per run. */
  static Map<String, List<ArmRun>> runs(double[][] base, double[][] arm) {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("base", sideOf(base));
    runs.put("arm", sideOf(arm));
    return runs;
  }

  private static List<ArmRun> sideOf(double[][] values) {
    List<ArmRun> side = new ArrayList<>();
    for (double[] v : values) {
      side.add(VerdictsTest.run(v[0], v[1], v[2], 0));
    }
    return side;
  }

  @Test
  void anIntervalThatExcludesZeroUnderAnInconclusiveVerdictSaysItIsNotSignificantAfterHolm() {
    // req/s +33%: Welch's p = 0.0156 alone would be significant, but it is one of four tests: Holm's first level is
    // 0.05 / 4 = 0.0125, which it misses (adjusted 4 · 0.0156 = 0.0623), so nothing in the family is significant.
    // Before, the line read "+33.0% [+5.5, +60.5] inconclusive (detects ≥ 30.4%)": an interval off 0, and an observed
    // difference larger than the one it claimed to detect, under a word that says the runs cannot tell.
    Map<String, List<ArmRun>> runs = runs(new double[][] {{100, 400, 0.50}, {110, 410, 0.52}, {90, 390, 0.48}},
        new double[][] {{133, 401, 0.51}, {143, 411, 0.49}, {123, 389, 0.50}});
    Verdict v = Verdicts.of(runs, settings(FOUR)).get(0);

    assertThat(v.verdict).isEqualTo(Verdicts.INCONCLUSIVE);
    assertThat(v.pValue).isCloseTo(0.0155826, within(1e-6));
    assertThat(v.pAdjusted).isCloseTo(0.0623306, within(1e-6));
    assertThat(v.ci95Pct.get(0)).isCloseTo(9.257860, within(1e-5));
    assertThat(v.ci95Pct.get(1)).isCloseTo(63.757401, within(1e-5));
    assertThat(v.alpha).as("the level Holm decided it at").isCloseTo(0.0125, within(1e-12));
    // the detectable effect at that level, not at 5% (30.35%): an observed 33% is below it, as it must be when inconclusive
    assertThat(v.mdePct).isCloseTo(42.911963, within(1e-5)).isGreaterThan(Math.abs(v.deltaPct));
    assertThat(v.note).isEqualTo("not significant after Holm: p 0.0156, Holm 0.0623");
    assertThat(Cells.verdictLine(v))
        .isEqualTo("req/s +33.0% [+9.3, +63.8] inconclusive (not significant after Holm: p 0.0156, Holm 0.0623; detects ≥ 42.9%)");
    assertThat(Cells.detectable(v)).isEqualTo("42.9% at α 0.0125");
  }

  @Test
  void theIntervalExcludesZeroExactlyWhenWelchsPIsBelowFivePercent() {
    // arm 0, 0, 6 against 10, 11, 9 req/s: p = 0.048, so "worse"; the delta method's interval [-165.7, +5.7] spanned 0
    // (and reached below -100%). Fieller's interval is the ratios Welch's test does not reject: [-100, -1.7].
    Map<String, List<ArmRun>> runs = runs(new double[][] {{10, 400, 0.5}, {11, 400, 0.5}, {9, 400, 0.5}},
        new double[][] {{0, 400, 0.5}, {0, 400, 0.5}, {6, 400, 0.5}});
    Verdict v = Verdicts.of(runs, settings(List.of(Metric.REQUEST_THROUGHPUT))).get(0);
    assertThat(v.pValue).isCloseTo(0.0479644, within(1e-6));
    assertThat(v.verdict).isEqualTo(Verdicts.WORSE);
    assertThat(v.ci95Pct.get(0)).isEqualTo(-100.0);
    assertThat(v.ci95Pct.get(1)).isCloseTo(-1.683787, within(1e-5));

    // and over many seeded samples, at 95% and 90%
    Random random = new Random(29);
    for (int trial = 0; trial < 500; trial++) {
      double[] a = sample(random, 3 + random.nextInt(3), 40 + 20 * random.nextDouble(), 1 + 8 * random.nextDouble());
      double[] b = sample(random, 3 + random.nextInt(3), 50, 1 + 8 * random.nextDouble());
      WelchRatioTest test = new WelchRatioTest(a, b);
      double p = test.pValue();
      for (double level : new double[] {0.95, 0.90}) {
        Statistics.Interval ci = test.ratioPct(level);
        assertThat(ci.spansZero()).as("trial %d at %s: p %s, interval %s", trial, level, p, ci).isEqualTo(p >= 1 - level);
      }
    }
  }

  private static double[] sample(Random random, int n, double mean, double sd) {
    double[] xs = new double[n];
    for (int i = 0; i < n; i++) {
      xs[i] = Math.max(0, mean + sd * random.nextGaussian());
    }
    return xs;
  }

  @Test
  void aRatioOfNonNegativeMeansIsNeverBelowMinus100Percent() {
    // arm 2, 6, 4 against 10, 11, 9: -60%; the delta method said [-107.2, -12.8], a throughput below nothing
    Map<String, List<ArmRun>> runs = runs(new double[][] {{10, 400, 0.5}, {11, 410, 0.52}, {9, 390, 0.48}},
        new double[][] {{2, 400, 0.5}, {6, 410, 0.52}, {4, 390, 0.48}});
    Verdict v = Verdicts.of(runs, settings(List.of(Metric.REQUEST_THROUGHPUT))).get(0);
    assertThat(v.deltaPct).isCloseTo(-60.0, within(1e-9));
    assertThat(v.ci95Pct.get(0)).isCloseTo(-97.170742, within(1e-5)).isGreaterThanOrEqualTo(-100.0);
    assertThat(v.ci95Pct.get(1)).isCloseTo(-19.967659, within(1e-5));
    assertThat(v.verdict).as("p = 0.0196").isEqualTo(Verdicts.WORSE);
    // an arm whose runs do not tell its mean from 0: the interval starts at -100%, a ratio of 0
    assertThat(new WelchRatioTest(new double[] {1, 9, 2}, new double[] {10, 11, 9}).ratioPct(0.95).low()).isEqualTo(-100.0);
  }

  @Test
  void aBaselineWhoseRunsDoNotTellItsMeanFromZeroIsNotComparable() {
    // 10, 1, 19: mean 10 ± 22.4 at 95%, so no ratio to it is too large to reject
    assertThat(new WelchRatioTest(new double[] {3, 5, 4}, new double[] {10, 1, 19}).ratioPct(0.95)).isNull();
    Map<String, List<ArmRun>> runs = runs(new double[][] {{10, 400, 0.5}, {1, 410, 0.52}, {19, 390, 0.48}},
        new double[][] {{3, 400, 0.5}, {5, 410, 0.52}, {4, 390, 0.48}});
    Verdict v = Verdicts.of(runs, settings(List.of(Metric.REQUEST_THROUGHPUT))).get(0);
    assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
    assertThat(v.reason).isEqualTo("base's runs do not tell its mean from 0 at 95%: the relative difference has no upper bound");
    assertThat(v.ci95Pct).isNull();
  }

  @Test
  void runsWithoutSpreadOnBothSidesAreNotComparable() {
    // cache hit 75.02% in every run against 58.61% in every run: the test's error is 0 and its p 0, "better" by
    // +28.0% [+28.0, +28.0], though the runs never measured a noise to weigh 28% against
    Map<String, List<ArmRun>> runs = runs(new double[][] {{100, 400, 0.5861}, {110, 410, 0.5861}, {90, 390, 0.5861}},
        new double[][] {{100, 400, 0.7502}, {110, 410, 0.7502}, {90, 390, 0.7502}});
    Verdict v = Verdicts.of(runs, settings(List.of(Metric.ENGINE_CACHE_HIT_RATE))).get(0);
    assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
    assertThat(v.reason).isEqualTo("no spread between runs: arm's 3 runs all measured 0.7502 and base's 3 all 0.5861, so there is no "
        + "run-to-run noise to weigh the difference against");
    assertThat(v.deltaPct).as("the difference is still shown").isCloseTo(28.0, within(0.01));
    assertThat(v.pValue).isNull();
    // one side without spread is judged: the other side's runs measure the noise
    Map<String, List<ArmRun>> oneSide = runs(new double[][] {{100, 400, 0.58}, {110, 410, 0.59}, {90, 390, 0.60}},
        new double[][] {{100, 400, 0.7502}, {110, 410, 0.7502}, {90, 390, 0.7502}});
    assertThat(Verdicts.of(oneSide, settings(List.of(Metric.ENGINE_CACHE_HIT_RATE))).get(0).verdict).isEqualTo(Verdicts.BETTER);
  }

  @Test
  void overSeededFamiliesTheWordTheIntervalAndTheDetectableEffectAgree() {
    Random random = new Random(2929);
    for (int trial = 0; trial < 200; trial++) {
      double[][] base = new double[3][];
      double[][] arm = new double[3][];
      double shift = 1 + 0.4 * random.nextGaussian();
      for (int i = 0; i < 3; i++) {
        base[i] = new double[] {100 + 10 * random.nextGaussian(), 400 + 40 * random.nextGaussian(), 0.5 + 0.05 * random.nextGaussian()};
        arm[i] = new double[] {shift * (100 + 10 * random.nextGaussian()), 400 + 40 * random.nextGaussian(), 0.5 + 0.05 * random.nextGaussian()};
      }
      for (Verdict v : Verdicts.of(runs(base, arm), settings(FOUR))) {
        boolean decided = v.verdict.equals(Verdicts.BETTER) || v.verdict.equals(Verdicts.WORSE);
        assertThat(decided).as("trial %d %s: p %s ≤ α %s", trial, v.metric, v.pValue, v.alpha).isEqualTo(v.pValue <= v.alpha);
        if (!decided) {
          assertThat(Math.abs(v.deltaPct)).as("trial %d %s: never an observed difference above the detectable one", trial, v.metric)
              .isLessThan(v.mdePct);
          assertThat(v.note != null).as("trial %d %s: a note exactly when the interval excludes 0", trial, v.metric)
              .isEqualTo(v.ci95Pct.get(0) > 0 || v.ci95Pct.get(1) < 0);
        } else {
          assertThat(v.ci95Pct.get(0) > 0 || v.ci95Pct.get(1) < 0).as("trial %d %s: a decided verdict's interval excludes 0", trial, v.metric)
              .isTrue();
        }
      }
    }
  }
}
