package dev.srt.operator.verdict;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The statistics verdicts need: a sample's mean, standard deviation and Student-t interval; for two
 * samples (an arm against the baseline) Welch's test of the difference of the means and the smallest
 * difference the samples could detect. {@link WelchRatioTest} turns Welch's test into the interval
 * of the ratio of the means; {@link BoundedIntervals} keeps intervals of shares and capacities where
 * those can be.
 */
public final class Statistics {
  /** Two-sided confidence level of every interval. */
  public static final double LEVEL = 0.95;
  /** The significance level of every test: 1 - {@link #LEVEL}. */
  public static final double ALPHA = 1 - LEVEL;
  /** The power the minimum detectable effect is computed for. */
  public static final double POWER = 0.8;
  /** The relative standard deviation at or below which a sample counts as without spread ({@link #hasSpread}). */
  public static final double NO_SPREAD = 1e-6;

  private Statistics() {}

  /** An interval [low, high]. */
  public record Interval(double low, double high) {
    public boolean spansZero() {
      return low <= 0 && high >= 0;
    }

    /** Whether the interval lies strictly within (-margin, +margin). */
    public boolean within(double margin) {
      return low > -margin && high < margin;
    }

    public List<Double> asList() {
      return List.of(low, high);
    }
  }

  public static double mean(double[] xs) {
    double sum = 0;
    for (double x : xs) {
      sum += x;
    }
    return sum / xs.length;
  }

  /** The sample variance (n - 1 in the denominator); needs two values. */
  public static double variance(double[] xs) {
    double m = mean(xs);
    double sum = 0;
    for (double x : xs) {
      sum += (x - m) * (x - m);
    }
    return sum / (xs.length - 1);
  }

  /** The {@code p} quantile of Student's t with {@code df} degrees of freedom. */
  public static double tQuantile(double p, double df) {
    return new TDistribution(null, df).inverseCumulativeProbability(p);
  }

  /** The two-sided 95% quantile of Student's t with {@code df} degrees of freedom (2.776 for 4). */
  public static double tQuantile(double df) {
    return tQuantile(1 - ALPHA / 2, df);
  }

  /** P(T <= t) for Student's t with {@code df} degrees of freedom. */
  static double tCdf(double t, double df) {
    return new TDistribution(null, df).cumulativeProbability(t);
  }

  /** The 95% interval of the mean of {@code xs} (at least two values). */
  public static Interval meanInterval(double[] xs) {
    double m = mean(xs);
    double half = tQuantile(xs.length - 1) * Math.sqrt(variance(xs) / xs.length);
    return new Interval(m - half, m + half);
  }

  /**
   * Welch–Satterthwaite degrees of freedom of the difference of the means of {@code a} and {@code
   * b}; NaN when both samples have no spread.
   */
  public static double welchDegreesOfFreedom(double[] a, double[] b) {
    return satterthwaite(variance(a) / a.length, a.length, variance(b) / b.length, b.length);
  }

  /** Degrees of freedom of a sum of two variance terms {@code va} (from {@code na} values) and {@code vb}. */
  private static double satterthwaite(double va, int na, double vb, int nb) {
    double den = va * va / (na - 1) + vb * vb / (nb - 1);
    return den == 0 ? Double.NaN : (va + vb) * (va + vb) / den;
  }

  /**
   * The 95% interval of mean(a) - mean(b), by Welch's t (at least two values each). Two samples
   * without spread give the difference itself.
   */
  public static Interval welch(double[] a, double[] b) {
    double d = mean(a) - mean(b);
    double df = welchDegreesOfFreedom(a, b);
    if (Double.isNaN(df)) {
      return new Interval(d, d);
    }
    double half = tQuantile(df) * Math.sqrt(variance(a) / a.length + variance(b) / b.length);
    return new Interval(d - half, d + half);
  }

  /**
   * Welch's two-sided p-value for mean(a) = mean(b) (at least two values each). Two samples without
   * spread give 1 when their means are equal and 0 when not.
   */
  public static double welchPValue(double[] a, double[] b) {
    double d = mean(a) - mean(b);
    double se = Math.sqrt(variance(a) / a.length + variance(b) / b.length);
    if (se == 0) {
      return d == 0 ? 1 : 0;
    }
    double t = Math.abs(d) / se;
    return Math.min(1, 2 * tCdf(-t, welchDegreesOfFreedom(a, b)));
  }

  /**
   * The smallest difference of the means, in percent of mean(b), that Welch's test at level {@code
   * alpha} finds with 80% power given these samples' spread and sizes: (t_{1-α/2} + t_{power}) ×
   * sqrt(s_a²/n_a + s_b²/n_b) / |mean(b)| × 100, with Welch's degrees of freedom; 0 without spread.
   * A verdict computes it at the level it was decided at (its Holm level), so an observed
   * difference at least this large is always significant there.
   */
  public static double minimumDetectableEffectPct(double[] a, double[] b, double alpha) {
    double se = Math.sqrt(variance(a) / a.length + variance(b) / b.length);
    double df = welchDegreesOfFreedom(a, b);
    if (se == 0 || Double.isNaN(df)) {
      return 0;
    }
    return (tQuantile(1 - alpha / 2, df) + tQuantile(POWER, df)) * se / Math.abs(mean(b)) * 100;
  }

  /**
   * Whether the values vary from run to run: a standard deviation above {@link #NO_SPREAD} of the
   * mean's size. Values that agree to six significant digits are the same number up to rounding
   * (a deterministic measurement repeated), not a measured noise a test could weigh a difference by.
   */
  public static boolean hasSpread(double[] xs) {
    return xs.length > 1 && Math.sqrt(variance(xs)) > NO_SPREAD * Math.abs(mean(xs));
  }
}
