package dev.srt.operator.verdict;

/**
 * The one test a verdict's numbers come from: Welch's t-test of "the arm's mean is r times the
 * baseline's",
 *
 * <pre>T(r) = (mean(a) − r · mean(b)) / sqrt(s_a²/n_a + r² · s_b²/n_b)</pre>
 *
 * <p>with Welch's degrees of freedom (those of r = 1) throughout. At r = 1 it is Welch's test of a
 * difference: the verdict's p-value. The ratios it does not reject at a level are Fieller's
 * interval of mean(a) / mean(b): the verdict's interval, so that it excludes 0% exactly when the
 * p-value is below that level. The smallest difference it finds with 80% power at a level is the
 * detectable effect. The delta method used before approximated the ratio's error by a straight line,
 * could reach below −100% and disagree with Welch's p-value; Fieller's interval is exact for the
 * test, and, since every metric is non-negative, a ratio below 0 is no value the means can have,
 * so the interval is kept to ratios of 0 and more (−100%), the only bound it is clipped to.
 */
final class WelchRatioTest {
  private final double[] a;
  private final double[] b;
  private final double meanA;
  private final double meanB;
  /** s_a² / n_a. */
  private final double varA;
  /** s_b² / n_b. */
  private final double varB;
  private final double df;

  /** At least two values each. */
  WelchRatioTest(double[] a, double[] b) {
    this.a = a;
    this.b = b;
    meanA = Statistics.mean(a);
    meanB = Statistics.mean(b);
    varA = Statistics.variance(a) / a.length;
    varB = Statistics.variance(b) / b.length;
    df = Statistics.welchDegreesOfFreedom(a, b);
  }

  /** Welch's two-sided p-value for mean(a) = mean(b) (T(1)); 0 or 1 without any spread. */
  double pValue() {
    return Statistics.welchPValue(a, b);
  }

  /**
   * The two-sided {@code level} interval of (mean(a) / mean(b) − 1) in percent: every r ≥ 0 with
   * |T(r)| ≤ t, the roots of (mean(b)² − t²·s_b²/n_b) r² − 2 mean(a) mean(b) r + (mean(a)² −
   * t²·s_a²/n_a) = 0. Null when the baseline's own runs do not tell its mean from 0 at that level
   * (mean(b)² ≤ t²·s_b²/n_b): then no ratio is too large to reject, and the interval has no upper end.
   */
  Statistics.Interval ratioPct(double level) {
    if (varA + varB == 0 || Double.isNaN(df)) {
      double pct = (meanA / meanB - 1) * 100;
      return new Statistics.Interval(pct, pct);
    }
    double t = Statistics.tQuantile(1 - (1 - level) / 2, df);
    double quadratic = meanB * meanB - t * t * varB;
    if (quadratic <= 0) {
      return null;
    }
    double linear = meanA * meanB;
    double constant = meanA * meanA - t * t * varA;
    // b² − ac = t² (mean(a)² s_b²/n_b + quadratic · s_a²/n_a) ≥ 0: the roots exist; max() guards rounding
    double root = Math.sqrt(Math.max(0, linear * linear - quadratic * constant));
    double low = Math.max(0, (linear - root) / quadratic);
    double high = (linear + root) / quadratic;
    return new Statistics.Interval((low - 1) * 100, (high - 1) * 100);
  }

  /** The detectable effect at {@code alpha} ({@link Statistics#minimumDetectableEffectPct}): T's difference scale, in percent. */
  double detectablePct(double alpha) {
    return Statistics.minimumDetectableEffectPct(a, b, alpha);
  }
}
