package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Set;

/**
 * A run's headline numbers, computed by the operator from the benchmark's own result files and the
 * engines' metrics scraped around it. A number the run did not give is absent.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BenchmarkResults {
  /** Keys that count what a run did rather than how well it did: no verdict is given on them. */
  public static final Set<String> NOT_JUDGED = Set.of("completed", "duration");

  /** Requests that completed. */
  public Long completed;

  /** Requests that failed (bench_serving's errors, AIPerf's error summary). */
  public Long failed;

  /** Seconds the measured benchmark ran. */
  public Double duration;

  /** Completed requests per second. */
  @JsonProperty("request_throughput")
  public Double requestThroughput;

  /** Output tokens per second. */
  @JsonProperty("output_throughput")
  public Double outputThroughput;

  /** Prompt and output tokens per second. */
  @JsonProperty("total_throughput")
  public Double totalThroughput;

  /** Mean time to first token, in milliseconds. */
  @JsonProperty("mean_ttft_ms")
  public Double meanTtftMs;

  /** Median time to first token, in milliseconds. */
  @JsonProperty("median_ttft_ms")
  public Double medianTtftMs;

  /** 90th percentile of the time to first token, in milliseconds. */
  @JsonProperty("p90_ttft_ms")
  public Double p90TtftMs;

  /** 99th percentile of the time to first token, in milliseconds. */
  @JsonProperty("p99_ttft_ms")
  public Double p99TtftMs;

  /** Mean inter-token latency, in milliseconds. */
  @JsonProperty("mean_itl_ms")
  public Double meanItlMs;

  /** Median inter-token latency (over every gap of every request), in milliseconds. */
  @JsonProperty("median_itl_ms")
  public Double medianItlMs;

  /** 90th percentile of the inter-token latency, in milliseconds. */
  @JsonProperty("p90_itl_ms")
  public Double p90ItlMs;

  /** 99th percentile of the inter-token latency, in milliseconds. */
  @JsonProperty("p99_itl_ms")
  public Double p99ItlMs;

  /** Mean time per output token after the first ((latency - TTFT) / (output tokens - 1)), in milliseconds. */
  @JsonProperty("mean_tpot_ms")
  public Double meanTpotMs;

  /** 99th percentile of the requests' time per output token, in milliseconds. */
  @JsonProperty("p99_tpot_ms")
  public Double p99TpotMs;

  /** Mean end-to-end request latency, in milliseconds. */
  @JsonProperty("mean_e2e_latency_ms")
  public Double meanE2eLatencyMs;

  /** 99th percentile of the end-to-end request latency, in milliseconds. */
  @JsonProperty("p99_e2e_latency_ms")
  public Double p99E2eLatencyMs;

  /** Requests per second that met spec.slo (completed ones whose every set threshold held). */
  @JsonProperty("goodput")
  public Double goodput;

  /**
   * Requests that met spec.slo over all requests sent, failed ones included (0 to 1): the goodput %
   * that capacity is judged on.
   */
  @JsonProperty("goodput_ratio")
  public Double goodputRatio;

  /**
   * Requests the router turned away (HTTP 429 or 503: sent but not admitted) over all requests sent
   * (0 to 1), shown beside the goodput %: a router that sheds load gives these up.
   */
  @JsonProperty("shed_ratio")
  public Double shedRatio;

  /** Prompt tokens the engines served from their prefix cache, over all prompt tokens (0 to 1). */
  @JsonProperty("engine_cache_hit_rate")
  public Double engineCacheHitRate;

  /** Requests of the busiest worker over those of the idlest one (1 is perfectly even). */
  @JsonProperty("worker_requests_max_over_min")
  public Double workerRequestsMaxOverMin;

  /**
   * Requests of the busiest worker over the mean per worker: the busiest worker's share of the load
   * against an even share (1 is perfectly even).
   */
  @JsonProperty("worker_requests_max_over_mean")
  public Double workerRequestsMaxOverMean;
}
