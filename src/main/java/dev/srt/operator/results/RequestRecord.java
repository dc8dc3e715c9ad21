package dev.srt.operator.results;

/**
 * One request of a benchmark run as the tool recorded it, times in milliseconds: what goodput and
 * the per-request percentiles are computed from. A failed request has no times.
 *
 * @param itlsMs the gaps between the streamed chunks after the first
 * @param tpotMs (latency - TTFT) / (output tokens - 1); NaN with fewer than two output tokens
 */
record RequestRecord(boolean success, double ttftMs, double[] itlsMs, double e2eMs, double tpotMs) {
  static RequestRecord failed() {
    return new RequestRecord(false, Double.NaN, new double[0], Double.NaN, Double.NaN);
  }
}
