package dev.srt.operator.results;

import java.util.Locale;

/**
 * The benchmark's own result files that a run's numbers are computed from (relative to its results
 * directory: {@code results/}, or {@code results/level-<i>/} for one level of a ladder), each read
 * up to a limit on the host. A longer one gives no results.
 */
public enum ResultFile {
  /**
   * bench_serving's {@code --output-file}; only its last non-blank line (row) is read, with
   * {@code --output-details} each request's TTFT and gaps (tens of bytes per streamed chunk).
   */
  BENCH_SERVING("bench-serving.jsonl", 32 * 1024 * 1024),
  /** AIPerf's aggregate export; the first in byte order when there are several. */
  AIPERF("aiperf/*_aiperf.json", 1024 * 1024),
  /** AIPerf's per-request records: the export's {@code <prefix>.jsonl} beside its {@code <prefix>_aiperf.json}. */
  AIPERF_RECORDS("aiperf/*.jsonl", 32 * 1024 * 1024),
  /** The scrape of every /metrics before the benchmark; only the lines the numbers need are read. */
  METRICS_BEFORE("metrics-before.txt", 1024 * 1024),
  /** The same scrape after the benchmark. */
  METRICS_AFTER("metrics-after.txt", 1024 * 1024),
  /** What the run recorded about itself before the benchmark (in the run directory), read by {@link FactsFile}, not for numbers. */
  FACTS(FactsFile.PATH, FactsFile.MAX_BYTES);

  /** The path, or for AIPerf the glob, relative to the results directory. */
  public final String path;
  /** The most bytes read of it; a row (bench_serving) or file (the others) with more gives no results. */
  public final int maxBytes;

  ResultFile(String path, int maxBytes) {
    this.path = path;
    this.maxBytes = maxBytes;
  }

  /** Its name in the fetch command's output frames. */
  public String frame() {
    return name().toLowerCase(Locale.ROOT);
  }
}
