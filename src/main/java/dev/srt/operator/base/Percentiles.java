package dev.srt.operator.base;

/**
 * Percentiles as numpy computes them by default ("linear": between the two closest ranks), which
 * is how bench_serving and AIPerf report theirs; the benchmark emulators and the results reader
 * share it so that both say the same p99.
 */
public final class Percentiles {
  private Percentiles() {}

  /** The {@code p}th percentile (0 to 100) of {@code sorted} (ascending); 0 for none. */
  public static double of(double[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    double rank = p / 100 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
  }
}
