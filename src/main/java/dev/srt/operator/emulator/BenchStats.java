package dev.srt.operator.emulator;

import dev.srt.operator.base.Percentiles;
import java.util.Arrays;
import java.util.List;

/** The summary statistics bench_serving reports, computed as numpy does (linear percentiles, population std). */
public final class BenchStats {
  private final double[] sorted;

  public BenchStats(List<Double> values) {
    this.sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }

  public int count() {
    return sorted.length;
  }

  public double mean() {
    return sorted.length == 0 ? 0 : Arrays.stream(sorted).sum() / sorted.length;
  }

  public double median() {
    return percentile(50);
  }

  public double std() {
    if (sorted.length == 0) {
      return 0;
    }
    double m = mean();
    return Math.sqrt(Arrays.stream(sorted).map(v -> (v - m) * (v - m)).sum() / sorted.length);
  }

  public double max() {
    return sorted.length == 0 ? 0 : sorted[sorted.length - 1];
  }

  /** numpy.percentile's default ("linear") interpolation between closest ranks. */
  public double percentile(double p) {
    return Percentiles.of(sorted, p);
  }
}
