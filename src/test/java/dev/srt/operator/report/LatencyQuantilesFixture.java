package dev.srt.operator.report;

import dev.srt.operator.verdict.LatencyQuantiles;

/** Distributions for report tests. */
final class LatencyQuantilesFixture {
  private LatencyQuantilesFixture() {}

  /** A TTFT distribution spread evenly on a log scale from {@code from} to {@code to} ms; no gaps. */
  static LatencyQuantiles spread(double from, double to) {
    double[] q = new double[LatencyQuantiles.POINTS];
    for (int p = 0; p < q.length; p++) {
      q[p] = from * Math.pow(to / from, p / 100.0);
    }
    return new LatencyQuantiles(q, new double[0]);
  }
}
