package dev.srt.operator.reconcile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An arm's headline results in one line for its Succeeded event ({@code kubectl describe} and
 * {@code kubectl get events} show the comparison without the status YAML): throughput, TTFT,
 * the engines' cache hit rate and request spread, each only when the run reported it.
 */
final class ResultsLine {
  private ResultsLine() {}

  static String of(Map<String, String> results) {
    if (results == null || results.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    add(parts, results.get("request_throughput"), "%.1f req/s", 1);
    add(parts, results.get("mean_ttft_ms"), "mean TTFT %.0f ms", 1);
    add(parts, results.get("p99_ttft_ms"), "p99 TTFT %.0f ms", 1);
    add(parts, results.get("engine_cache_hit_rate"), "engine cache hit %.1f%%", 100);
    add(parts, results.get("worker_requests_max_over_min"), "requests max/min %.2f", 1);
    return parts.isEmpty() ? null : String.join(", ", parts);
  }

  private static void add(List<String> parts, String value, String format, double scale) {
    if (value == null) {
      return;
    }
    try {
      parts.add(String.format(Locale.ROOT, format, Double.parseDouble(value) * scale));
    } catch (NumberFormatException e) {
      // a tool's non-numeric value: left out rather than shown garbled
    }
  }
}
