package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** How an arm compares with the baseline on one headline metric. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Verdict {
  /** The arm compared. */
  public String arm;

  /** The arm it is compared with (spec.execution.baseline). */
  public String baseline;

  /** request_throughput, mean_ttft_ms, p99_ttft_ms or engine_cache_hit_rate. */
  public String metric;

  /** (arm mean - baseline mean) / baseline mean, in percent. */
  public Double deltaPct;

  /** 95% confidence interval of deltaPct, [low, high] (Welch's t on the runs' values). */
  public List<Double> ci95Pct;

  /**
   * better or worse (by the metric's direction: higher throughput and cache hit rate, lower
   * latencies), no-difference when the interval spans zero, not-comparable when either arm has fewer
   * than 2 succeeded runs, failed more requests than spec.execution.maxFailedRatio, or when the
   * compared runs differ in a held-constant fact (spec.execution.requireFacts).
   */
  public String verdict;

  /** Why a verdict is not-comparable. */
  public String reason;
}
