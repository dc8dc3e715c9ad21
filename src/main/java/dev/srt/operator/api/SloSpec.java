package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The latency objective a request must meet to count as good: every threshold that is set must
 * hold. Goodput is the good requests per second; capacity is the highest load at which the share
 * of good requests stays at or above attainment.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "has(self.ttftMs) || has(self.itlMs) || has(self.tpotMs) || has(self.e2eMs)",
    message = "set at least one of ttftMs, itlMs, tpotMs, e2eMs")
public class SloSpec {
  /** Default of {@link #attainment}. */
  public static final double DEFAULT_ATTAINMENT = 0.99;
  /** The largest threshold, in milliseconds (one day). */
  public static final int MAX_MS = 86_400_000;

  /** Time to first token, in milliseconds: a request meets it when its TTFT is at most this. */
  @Min(0)
  @Max(MAX_MS)
  public Double ttftMs;

  /**
   * Inter-token latency, in milliseconds: a request meets it when the 99th percentile of its own
   * gaps between streamed chunks is at most this (as inference-perf judges ITL per request).
   */
  @Min(0)
  @Max(MAX_MS)
  public Double itlMs;

  /**
   * Time per output token, in milliseconds: a request meets it when (latency - TTFT) / (output
   * tokens - 1) is at most this.
   */
  @Min(0)
  @Max(MAX_MS)
  public Double tpotMs;

  /** End-to-end latency of a request, in milliseconds. */
  @Min(0)
  @Max(MAX_MS)
  public Double e2eMs;

  /**
   * The share of requests that must meet the objective at a load for the arm to sustain it, above
   * 0 and at most 1; default 0.99.
   */
  @Min(0)
  @Max(1)
  public Double attainment;

  /** {@link #attainment}, or its default. */
  public double attainmentOrDefault() {
    return attainment == null ? DEFAULT_ATTAINMENT : attainment;
  }
}
