package dev.srt.operator.emulator;

import java.util.List;

/** Welch's 95% confidence interval of the difference of two means (unequal variances), for noise tests. */
record Welch(double low, double high) {
  /** Two-sided 97.5% quantiles of Student's t for 1..10 degrees of freedom. */
  private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};

  static Welch interval(List<Double> a, List<Double> b) {
    double va = variance(a) / a.size();
    double vb = variance(b) / b.size();
    double se = Math.sqrt(va + vb);
    double df = (va + vb) * (va + vb) / (va * va / (a.size() - 1) + vb * vb / (b.size() - 1));
    double diff = mean(a) - mean(b);
    double t = t975(df);
    return new Welch(diff - t * se, diff + t * se);
  }

  boolean containsZero() {
    return low <= 0 && high >= 0;
  }

  static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  static double variance(List<Double> xs) {
    double m = mean(xs);
    return xs.stream().mapToDouble(x -> (x - m) * (x - m)).sum() / (xs.size() - 1);
  }

  static double cv(List<Double> xs) {
    return Math.sqrt(variance(xs)) / mean(xs);
  }

  /** Linear in 1/df between the tabulated degrees of freedom, as t tables are read. */
  private static double t975(double df) {
    if (df >= T975.length) {
      return 1.96 + (T975[T975.length - 1] - 1.96) * T975.length / df;
    }
    int lo = Math.max(1, (int) Math.floor(df));
    int hi = lo + 1;
    double w = (1 / df - 1.0 / hi) / (1.0 / lo - 1.0 / hi);
    return w * T975[lo - 1] + (1 - w) * T975[hi - 1];
  }
}
