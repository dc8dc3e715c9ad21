package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A run's headline numbers, computed by the operator from the benchmark's own result files and the
 * engines' metrics scraped around it. A number the run did not give is absent.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BenchmarkResults {
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

  /** 99th percentile of the time to first token, in milliseconds. */
  @JsonProperty("p99_ttft_ms")
  public Double p99TtftMs;

  /** Mean inter-token latency, in milliseconds. */
  @JsonProperty("mean_itl_ms")
  public Double meanItlMs;

  /** 99th percentile of the inter-token latency, in milliseconds. */
  @JsonProperty("p99_itl_ms")
  public Double p99ItlMs;

  /** Mean end-to-end request latency, in milliseconds. */
  @JsonProperty("mean_e2e_latency_ms")
  public Double meanE2eLatencyMs;

  /** Prompt tokens the engines served from their prefix cache, over all prompt tokens (0 to 1). */
  @JsonProperty("engine_cache_hit_rate")
  public Double engineCacheHitRate;

  /** Requests of the busiest worker over those of the idlest one (1 is perfectly even). */
  @JsonProperty("worker_requests_max_over_min")
  public Double workerRequestsMaxOverMin;
}
