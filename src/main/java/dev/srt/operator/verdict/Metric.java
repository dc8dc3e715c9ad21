package dev.srt.operator.verdict;

import dev.srt.operator.api.BenchmarkResults;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The numbers of a run ({@link BenchmarkResults}) by name: how each is read and written, which way
 * is better.
 */
public enum Metric {
  COMPLETED(r -> toDouble(r.completed), (r, v) -> r.completed = Math.round(v), Direction.NONE, "", "%.0f"),
  FAILED(r -> toDouble(r.failed), (r, v) -> r.failed = Math.round(v), Direction.LOWER, "", "%.0f"),
  DURATION(r -> r.duration, (r, v) -> r.duration = v, Direction.NONE, "s", "%.1f"),
  REQUEST_THROUGHPUT(r -> r.requestThroughput, (r, v) -> r.requestThroughput = v, Direction.HIGHER, "req/s", "%.2f"),
  OUTPUT_THROUGHPUT(r -> r.outputThroughput, (r, v) -> r.outputThroughput = v, Direction.HIGHER, "tok/s", "%.1f"),
  TOTAL_THROUGHPUT(r -> r.totalThroughput, (r, v) -> r.totalThroughput = v, Direction.HIGHER, "tok/s", "%.1f"),
  MEAN_TTFT_MS(r -> r.meanTtftMs, (r, v) -> r.meanTtftMs = v, Direction.LOWER, "ms", "%.1f"),
  MEDIAN_TTFT_MS(r -> r.medianTtftMs, (r, v) -> r.medianTtftMs = v, Direction.LOWER, "ms", "%.1f"),
  P90_TTFT_MS(r -> r.p90TtftMs, (r, v) -> r.p90TtftMs = v, Direction.LOWER, "ms", "%.1f"),
  P99_TTFT_MS(r -> r.p99TtftMs, (r, v) -> r.p99TtftMs = v, Direction.LOWER, "ms", "%.1f"),
  MEAN_ITL_MS(r -> r.meanItlMs, (r, v) -> r.meanItlMs = v, Direction.LOWER, "ms", "%.2f"),
  MEDIAN_ITL_MS(r -> r.medianItlMs, (r, v) -> r.medianItlMs = v, Direction.LOWER, "ms", "%.2f"),
  P90_ITL_MS(r -> r.p90ItlMs, (r, v) -> r.p90ItlMs = v, Direction.LOWER, "ms", "%.2f"),
  P99_ITL_MS(r -> r.p99ItlMs, (r, v) -> r.p99ItlMs = v, Direction.LOWER, "ms", "%.2f"),
  MEAN_TPOT_MS(r -> r.meanTpotMs, (r, v) -> r.meanTpotMs = v, Direction.LOWER, "ms", "%.2f"),
  P99_TPOT_MS(r -> r.p99TpotMs, (r, v) -> r.p99TpotMs = v, Direction.LOWER, "ms", "%.2f"),
  MEAN_E2E_LATENCY_MS(r -> r.meanE2eLatencyMs, (r, v) -> r.meanE2eLatencyMs = v, Direction.LOWER, "ms", "%.1f"),
  P99_E2E_LATENCY_MS(r -> r.p99E2eLatencyMs, (r, v) -> r.p99E2eLatencyMs = v, Direction.LOWER, "ms", "%.1f"),
  GOODPUT(r -> r.goodput, (r, v) -> r.goodput = v, Direction.HIGHER, "req/s", "%.2f"),
  GOODPUT_RATIO(r -> r.goodputRatio, (r, v) -> r.goodputRatio = v, Direction.HIGHER, "", "%.3f"),
  SHED_RATIO(r -> r.shedRatio, (r, v) -> r.shedRatio = v, Direction.LOWER, "", "%.3f"),
  ENGINE_CACHE_HIT_RATE(r -> r.engineCacheHitRate, (r, v) -> r.engineCacheHitRate = v, Direction.HIGHER, "", "%.3f"),
  WORKER_REQUESTS_MAX_OVER_MIN(r -> r.workerRequestsMaxOverMin, (r, v) -> r.workerRequestsMaxOverMin = v, Direction.LOWER, "",
      "%.2f"),
  WORKER_REQUESTS_MAX_OVER_MEAN(r -> r.workerRequestsMaxOverMean, (r, v) -> r.workerRequestsMaxOverMean = v, Direction.LOWER, "",
      "%.2f");

  /** Which way a change of the metric is an improvement. */
  public enum Direction { HIGHER, LOWER, NONE }


  private final Function<BenchmarkResults, Double> read;
  private final BiConsumer<BenchmarkResults, Double> write;
  public final Direction direction;
  public final String unit;
  private final String format;

  Metric(Function<BenchmarkResults, Double> read, BiConsumer<BenchmarkResults, Double> write, Direction direction, String unit,
      String format) {
    this.read = read;
    this.write = write;
    this.direction = direction;
    this.unit = unit;
    this.format = format;
  }

  /** Its name in status, JSON and reports: {@code request_throughput}, {@code p99_ttft_ms}, ... */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The value in {@code results}, or null when absent. */
  public Double of(BenchmarkResults results) {
    return results == null ? null : read.apply(results);
  }

  /** Sets the value in {@code results}. */
  public void set(BenchmarkResults results, double value) {
    write.accept(results, value);
  }

  /** Whether the metric is a share (0 to 1), shown in percent. */
  public boolean share() {
    return this == ENGINE_CACHE_HIT_RATE || this == GOODPUT_RATIO || this == SHED_RATIO;
  }

  /**
   * A copy of {@code results} with only {@code keep}: what a caller that must stay small (a status
   * with many runs and levels) keeps of each run.
   */
  public static BenchmarkResults only(BenchmarkResults results, Collection<Metric> keep) {
    if (results == null) {
      return null;
    }
    BenchmarkResults out = new BenchmarkResults();
    for (Metric m : keep) {
      Double v = m.of(results);
      if (v != null) {
        m.set(out, v);
      }
    }
    return out;
  }

  /** {@code value} as this metric is shown (no unit). */
  public String format(double value) {
    return String.format(Locale.ROOT, format, value);
  }

  public static Optional<Metric> of(String key) {
    for (Metric m : values()) {
      if (m.key().equals(key)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  private static Double toDouble(Long value) {
    return value == null ? null : value.doubleValue();
  }
}
