package dev.srt.operator.verdict;

import dev.srt.operator.base.Percentiles;
import java.util.Arrays;
import java.util.List;

/**
 * The distributions of a run's TTFT and inter-token gaps (ITL), as their quantile functions at
 * every whole percentile (0, 1, ..., 100; numpy's linear percentiles, as the tools compute theirs):
 * 101 numbers each whatever the number of requests, so a report can draw a CDF without the
 * per-request data leaving the host.
 *
 * @param ttftMs the TTFT quantiles of the succeeded requests, or empty when there were none
 * @param itlMs the quantiles of every gap between streamed chunks, or empty when there were none
 */
public record LatencyQuantiles(double[] ttftMs, double[] itlMs) {
  /** 0, 1, ..., 100. */
  public static final int POINTS = 101;

  public LatencyQuantiles {
    ttftMs = check(ttftMs, "ttftMs");
    itlMs = check(itlMs, "itlMs");
  }

  private static double[] check(double[] q, String name) {
    double[] copy = q == null ? new double[0] : q.clone();
    if (copy.length != 0 && copy.length != POINTS) {
      throw new IllegalArgumentException(name + " has " + copy.length + " quantiles, not " + POINTS);
    }
    for (int i = 1; i < copy.length; i++) {
      if (!(copy[i] >= copy[i - 1])) {
        throw new IllegalArgumentException(name + " is not ascending at " + i + "%");
      }
    }
    return copy;
  }

  /** From the samples, in any order (neither array is changed). */
  public static LatencyQuantiles of(double[] ttftMs, double[] itlMs) {
    return new LatencyQuantiles(quantiles(ttftMs), quantiles(itlMs));
  }

  private static double[] quantiles(double[] samples) {
    if (samples.length == 0) {
      return new double[0];
    }
    double[] sorted = samples.clone();
    Arrays.sort(sorted);
    double[] q = new double[POINTS];
    for (int p = 0; p < POINTS; p++) {
      q[p] = Percentiles.of(sorted, p);
    }
    return q;
  }

  /**
   * The distribution of an arm over its runs: at each percentile, the mean of the runs' quantiles
   * (a Vincentized average, which keeps a run's shape where pooling the requests would let the
   * busiest run dominate). Runs without a distribution are left out.
   */
  public static LatencyQuantiles averaged(List<LatencyQuantiles> runs) {
    return new LatencyQuantiles(average(runs.stream().map(LatencyQuantiles::ttftMs).toList()),
        average(runs.stream().map(LatencyQuantiles::itlMs).toList()));
  }

  private static double[] average(List<double[]> quantiles) {
    List<double[]> present = quantiles.stream().filter(q -> q.length == POINTS).toList();
    if (present.isEmpty()) {
      return new double[0];
    }
    double[] mean = new double[POINTS];
    for (double[] q : present) {
      for (int p = 0; p < POINTS; p++) {
        mean[p] += q[p] / present.size();
      }
    }
    for (int p = 1; p < POINTS; p++) {
      mean[p] = Math.max(mean[p], mean[p - 1]); // rounding must not make it descend
    }
    return mean;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LatencyQuantiles q && Arrays.equals(ttftMs, q.ttftMs) && Arrays.equals(itlMs, q.itlMs);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(ttftMs) + Arrays.hashCode(itlMs);
  }

  @Override
  public String toString() {
    return "LatencyQuantiles[ttft " + ttftMs.length + " points, itl " + itlMs.length + " points]";
  }

  /** The TTFT quantiles (a copy). */
  @Override
  public double[] ttftMs() {
    return ttftMs.clone();
  }

  /** The ITL quantiles (a copy). */
  @Override
  public double[] itlMs() {
    return itlMs.clone();
  }
}
