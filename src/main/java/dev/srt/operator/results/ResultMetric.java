package dev.srt.operator.results;

import java.util.Locale;
import java.util.Optional;

/**
 * The headline numbers of a run, and the only names they are ever shown under: status keys,
 * table columns and the {@code srt_arm_*} gauges (reconcile/ResultSeries). A name that is not one of
 * these never leaves the results layer, whatever a run writes.
 */
public enum ResultMetric {
  COMPLETED,
  /** Requests that failed: bench_serving's non-empty {@code errors}, AIPerf's {@code error_summary} counts. */
  FAILED,
  DURATION,
  REQUEST_THROUGHPUT,
  OUTPUT_THROUGHPUT,
  TOTAL_THROUGHPUT,
  MEAN_TTFT_MS,
  MEDIAN_TTFT_MS,
  P90_TTFT_MS,
  P99_TTFT_MS,
  MEAN_ITL_MS,
  MEDIAN_ITL_MS,
  P90_ITL_MS,
  P99_ITL_MS,
  MEAN_TPOT_MS,
  P99_TPOT_MS,
  MEAN_E2E_LATENCY_MS,
  P99_E2E_LATENCY_MS,
  /** Requests per second that met spec.slo. */
  GOODPUT,
  /** Requests that met spec.slo over all requests sent (0..1). */
  GOODPUT_RATIO,
  /**
   * Requests the router turned away (HTTP 429 or 503: sent, not admitted) over all requests sent
   * (0..1): what a router that sheds load gives up, shown beside goodput so shedding never reads as a win.
   */
  SHED_RATIO,
  /** Prompt tokens the engines served from their device prefix cache, over all prompt tokens (0..1). */
  ENGINE_CACHE_HIT_RATE,
  /** Requests of the busiest worker over those of the idlest one (1 is perfectly even). */
  WORKER_REQUESTS_MAX_OVER_MIN,
  /** Requests of the busiest worker over the mean per worker (1 is perfectly even). */
  WORKER_REQUESTS_MAX_OVER_MEAN;

  /** bench_serving's name: {@code request_throughput}, {@code p99_ttft_ms}, ... */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The metric with this {@link #key()}, if there is one. */
  public static Optional<ResultMetric> of(String key) {
    for (ResultMetric m : values()) {
      if (m.key().equals(key)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }
}
