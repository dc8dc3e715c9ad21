package dev.srt.operator.reconcile;

import dev.srt.operator.host.ResultMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An arm's headline results in one line for its Succeeded event ({@code kubectl describe} and
 * {@code kubectl get events} show the comparison without the status YAML): throughput, TTFT,
 * the engines' cache hit rate and request spread, each only when the run's result files gave it.
 */
final class ResultsLine {
  private ResultsLine() {}

  static String of(Map<String, String> results) {
    if (results == null || results.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    add(parts, results.get(ResultMetric.REQUEST_THROUGHPUT.key()), "%.1f req/s", 1);
    add(parts, results.get(ResultMetric.MEAN_TTFT_MS.key()), "mean TTFT %.0f ms", 1);
    add(parts, results.get(ResultMetric.P99_TTFT_MS.key()), "p99 TTFT %.0f ms", 1);
    add(parts, results.get(ResultMetric.ENGINE_CACHE_HIT_RATE.key()), "engine cache hit %.1f%%", 100);
    add(parts, results.get(ResultMetric.WORKER_REQUESTS_MAX_OVER_MIN.key()), "requests max/min %.2f", 1);
    return parts.isEmpty() ? null : String.join(", ", parts);
  }

  private static void add(List<String> parts, String value, String format, double scale) {
    if (value == null) {
      return;
    }
    try {
      double v = Double.parseDouble(value);
      if (Double.isFinite(v)) {
        parts.add(String.format(Locale.ROOT, format, v * scale));
      }
    } catch (NumberFormatException e) {
      // not a number: left out rather than shown garbled
    }
  }
}
