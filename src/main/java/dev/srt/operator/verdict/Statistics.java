package dev.srt.operator.verdict;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The few statistics verdicts need: a sample's mean, standard deviation and Student-t interval,
 * and Welch's interval for the difference of two means (unequal variances, as two routers have).
 */
public final class Statistics {
  /** Two-sided confidence level of every interval. */
  public static final double LEVEL = 0.95;

  private Statistics() {}

  /** An interval [low, high]. */
  public record Interval(double low, double high) {
    public boolean spansZero() {
      return low <= 0 && high >= 0;
    }

    public List<Double> asList() {
      return List.of(low, high);
    }

    Interval scaled(double factor) {
      return factor >= 0 ? new Interval(low * factor, high * factor) : new Interval(high * factor, low * factor);
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

  /** The two-sided 95% quantile of Student's t with {@code df} degrees of freedom (2.776 for 4). */
  public static double tQuantile(double df) {
    return new TDistribution(null, df).inverseCumulativeProbability(1 - (1 - LEVEL) / 2);
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
    double va = variance(a) / a.length;
    double vb = variance(b) / b.length;
    double num = (va + vb) * (va + vb);
    double den = va * va / (a.length - 1) + vb * vb / (b.length - 1);
    return den == 0 ? Double.NaN : num / den;
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

  /** {@link #welch} in percent of mean(b). */
  public static Interval welchPercent(double[] a, double[] b) {
    return welch(a, b).scaled(100 / mean(b));
  }
}
