package dev.srt.operator.reconcile;

import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.verdict.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An arm's headline results in one line for its Succeeded event ({@code kubectl describe} and
 * {@code kubectl get events} show the comparison without the status YAML): throughput, TTFT,
 * the engines' cache hit rate and request spread, each only when the run's result files gave it.
 */
final class ResultsLine {
  private ResultsLine() {}

  static String of(BenchmarkResults results) {
    if (results == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    add(parts, Metric.REQUEST_THROUGHPUT.of(results), "%.1f req/s", 1);
    add(parts, Metric.MEAN_TTFT_MS.of(results), "mean TTFT %.0f ms", 1);
    add(parts, Metric.P99_TTFT_MS.of(results), "p99 TTFT %.0f ms", 1);
    add(parts, Metric.ENGINE_CACHE_HIT_RATE.of(results), "engine cache hit %.1f%%", 100);
    add(parts, Metric.WORKER_REQUESTS_MAX_OVER_MIN.of(results), "requests max/min %.2f", 1);
    if (results.failed != null && results.failed > 0) {
      parts.add(results.failed + " failed requests");
    }
    return parts.isEmpty() ? null : String.join(", ", parts);
  }

  private static void add(List<String> parts, Double value, String format, double scale) {
    if (value != null && Double.isFinite(value)) {
      parts.add(String.format(Locale.ROOT, format, value * scale));
    }
  }
}
