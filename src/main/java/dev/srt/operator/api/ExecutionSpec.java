package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class ExecutionSpec {
  /** The most runs per arm. */
  public static final int MAX_REPETITIONS = 50;
  /** The most warm-up requests before an arm's measured run. */
  public static final int MAX_WARMUP_REQUESTS = 100_000;
  /** Default of {@link #maxFailedRatio}. */
  public static final double DEFAULT_MAX_FAILED_RATIO = 0.01;

  /**
   * In which order the runs go: declared runs every repetition of the first arm, then of the
   * second, ...; interleaved runs rounds (A B C, A B C, ...), so that a drift of the host over time
   * touches every arm alike; randomized runs rounds in an order shuffled per round, seeded from the
   * comparison's uid and generation (the seed is in status.seed). Default declared.
   */
  @Size(max = Limits.MAX_WORD)
  @OneOf(ExecutionOrder.class)
  @Default("declared")
  public String order;

  /** Runs per arm, 1 to 50 (default 1); verdicts need at least 2 per arm. */
  @Min(1)
  @Max(MAX_REPETITIONS)
  @Default("1")
  public Integer repetitions;

  /** The arm every other arm is compared with in status.verdicts. Default the first arm. */
  @Size(max = Limits.MAX_DNS_LABEL)
  public String baseline;

  /**
   * Requests sent through the arm's router after it is ready and before the measured ones, excluded
   * from the results (the benchmark's own warm-up option). Default: the benchmark's default.
   */
  @Min(0)
  @Max(MAX_WARMUP_REQUESTS)
  public Integer warmupRequests;

  /**
   * The largest share of failed requests (failed / (completed + failed), over an arm's succeeded
   * runs) with which an arm is still compared; above it its verdicts are not-comparable, since a
   * router can look fast by failing requests. 0 to 1, default 0.01.
   */
  @Min(0)
  @Max(1)
  @Default("" + DEFAULT_MAX_FAILED_RATIO)
  public Double maxFailedRatio;

  /** {@link #repetitions}, or 1. */
  public int repetitionsOrDefault() {
    return repetitions == null ? 1 : repetitions;
  }

  /** {@link #maxFailedRatio}, or its default. */
  public double maxFailedRatioOrDefault() {
    return maxFailedRatio == null ? DEFAULT_MAX_FAILED_RATIO : maxFailedRatio;
  }
}
