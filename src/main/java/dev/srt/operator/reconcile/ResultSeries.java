package dev.srt.operator.reconcile;

import dev.srt.operator.verdict.Metric;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * How each number of a run is named on {@code /metrics}, after Prometheus' conventions: base units
 * ({@code _seconds}, {@code _ratio}), one gauge per quantity, and what tells the numbers of one
 * quantity apart as a label ({@code srt_arm_ttft_seconds{stat="p99"}}). Every series also carries
 * {@code namespace}, {@code comparison} and {@code arm} ({@link ArmResultGauges}).
 */
public final class ResultSeries {
  /** One series: the gauge's name, its help text, its own labels, and the factor from the run's unit. */
  public record Series(String name, String help, Tags tags, double scale) {
    double value(double runValue) {
      return runValue * scale;
    }
  }

  private static final double MS = 1e-3;
  private static final Map<Metric, Series> SERIES = new EnumMap<>(Metric.class);

  static {
    requests(Metric.COMPLETED, "completed");
    requests(Metric.FAILED, "failed");
    put(Metric.DURATION, "srt_arm_benchmark_duration_seconds", "How long the benchmark ran", Tags.empty(), 1);
    put(Metric.REQUEST_THROUGHPUT, "srt_arm_request_throughput", "Requests per second the benchmark completed", Tags.empty(), 1);
    tokens(Metric.OUTPUT_THROUGHPUT, "output");
    tokens(Metric.TOTAL_THROUGHPUT, "total");
    latency(Metric.MEAN_TTFT_MS, "srt_arm_ttft_seconds", "Time to first token", "mean");
    latency(Metric.MEDIAN_TTFT_MS, "srt_arm_ttft_seconds", "Time to first token", "median");
    latency(Metric.P90_TTFT_MS, "srt_arm_ttft_seconds", "Time to first token", "p90");
    latency(Metric.P99_TTFT_MS, "srt_arm_ttft_seconds", "Time to first token", "p99");
    latency(Metric.MEAN_ITL_MS, "srt_arm_itl_seconds", "Inter-token latency", "mean");
    latency(Metric.MEDIAN_ITL_MS, "srt_arm_itl_seconds", "Inter-token latency", "median");
    latency(Metric.P90_ITL_MS, "srt_arm_itl_seconds", "Inter-token latency", "p90");
    latency(Metric.P99_ITL_MS, "srt_arm_itl_seconds", "Inter-token latency", "p99");
    latency(Metric.MEAN_TPOT_MS, "srt_arm_tpot_seconds", "Time per output token", "mean");
    latency(Metric.P99_TPOT_MS, "srt_arm_tpot_seconds", "Time per output token", "p99");
    latency(Metric.MEAN_E2E_LATENCY_MS, "srt_arm_e2e_latency_seconds", "End-to-end request latency", "mean");
    latency(Metric.P99_E2E_LATENCY_MS, "srt_arm_e2e_latency_seconds", "End-to-end request latency", "p99");
    put(Metric.GOODPUT, "srt_arm_goodput", "Requests per second that met spec.slo", Tags.empty(), 1);
    put(Metric.GOODPUT_RATIO, "srt_arm_goodput_ratio", "Share of the completed requests that met spec.slo", Tags.empty(), 1);
    put(Metric.ENGINE_CACHE_HIT_RATE, "srt_arm_engine_cache_hit_ratio",
        "Prompt tokens the engines served from their prefix cache over all prompt tokens, during the benchmark", Tags.empty(), 1);
    put(Metric.WORKER_REQUESTS_MAX_OVER_MIN, "srt_arm_worker_requests_max_over_min_ratio",
        "Requests of the busiest worker over those of the idlest (1 is perfectly even)", Tags.empty(), 1);
    put(Metric.WORKER_REQUESTS_MAX_OVER_MEAN, "srt_arm_worker_requests_max_over_mean_ratio",
        "Requests of the busiest worker over the mean per worker (1 is perfectly even)", Tags.empty(), 1);
  }

  private ResultSeries() {}

  /** The series of {@code metric}; empty for a number that is not published. */
  public static Optional<Series> of(Metric metric) {
    return Optional.ofNullable(SERIES.get(metric));
  }

  /** The metric a published series shows (tests and tools read the gauges back by it). */
  public static Optional<Metric> metricOf(Meter.Id id) {
    return SERIES.entrySet().stream().filter(e -> e.getValue().name().equals(id.getName())
        && e.getValue().tags().stream().allMatch(t -> t.getValue().equals(id.getTag(t.getKey())))).map(Map.Entry::getKey).findFirst();
  }

  private static void requests(Metric metric, String outcome) {
    put(metric, "srt_arm_requests", "Requests of the benchmark by outcome", Tags.of(Tag.of("outcome", outcome)), 1);
  }

  private static void tokens(Metric metric, String tokens) {
    put(metric, "srt_arm_token_throughput", "Tokens per second: output tokens, or prompt and output tokens (total)",
        Tags.of(Tag.of("tokens", tokens)), 1);
  }

  private static void latency(Metric metric, String name, String what, String stat) {
    put(metric, name, what + " over the benchmark's requests: mean, median, 90th or 99th percentile (stat)",
        Tags.of(Tag.of("stat", stat)), MS);
  }

  private static void put(Metric metric, String name, String help, Tags tags, double scale) {
    SERIES.put(metric, new Series(name, help + " (the mean over the arm's succeeded runs, else its latest run)", tags, scale));
  }
}
