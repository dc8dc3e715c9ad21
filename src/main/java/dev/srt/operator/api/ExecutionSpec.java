package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.maxDuration) || self.maxDuration.matches('^([0-9]+(ms|s|m|h))+$')",
    message = "must be a duration such as 24h or 90m", fieldPath = ".maxDuration")
public class ExecutionSpec {
  /** The most runs per arm. */
  public static final int MAX_REPETITIONS = 50;
  /** The most warm-up requests before an arm's measured run. */
  public static final int MAX_WARMUP_REQUESTS = 100_000;
  /** The most verdict metrics. */
  public static final int MAX_VERDICT_METRICS = 32;
  /** Default of {@link #equivalenceMargin}. */
  public static final double DEFAULT_EQUIVALENCE_MARGIN = 0.02;
  /** Default of {@link #verdictMetrics}; goodput only when the comparison has an SLO. */
  public static final List<String> DEFAULT_VERDICT_METRICS =
      List.of("request_throughput", "goodput", "p99_ttft_ms", "p99_itl_ms", "engine_cache_hit_rate");
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

  /**
   * The metrics that get a verdict, per load level (names as in the runs' results, e.g.
   * request_throughput, p99_ttft_ms). Default request_throughput, goodput (with spec.slo),
   * p99_ttft_ms, p99_itl_ms and engine_cache_hit_rate. Changing it reruns nothing.
   */
  @Size(max = MAX_VERDICT_METRICS)
  public List<@Size(max = Limits.MAX_WORD) String> verdictMetrics;

  /**
   * The largest difference, as a share of the baseline's mean, that still counts as none: an arm
   * whose 90% interval of the difference lies within plus or minus this is equivalent (two
   * one-sided tests). Above 0 and at most 1; default 0.02 (2%).
   */
  @Min(0)
  @Max(1)
  public Double equivalenceMargin;

  /**
   * Whether verdicts need the runs' facts to vouch for them (docs/run-protocol.md#facts), failing
   * closed: a verdict is not-comparable, with the reason, when the runs it compares differ in a
   * held-constant fact (a model file, a driver, an engine's effective argument, a package
   * version), when one of them has no facts (no facts.json, or one that is malformed, too large or
   * not a regular file), or when a routing fact (the router's binary, version, wheels) differs
   * between the runs of one arm. false keeps the verdict and reports the same as a warning.
   * Default true.
   */
  public Boolean requireFacts;

  /**
   * The longest the benchmarking of one run may take (every load level and the pauses between
   * them), a duration such as 24h or 90m, 1m to 168h; default 24h. Each level's benchmark is
   * stopped at a deadline (twice its expected length plus 10 minutes where the spec says how long
   * a level takes, else this) and never later than this after the first level began; a benchmark
   * stopped so fails the run with reason BenchmarkTimedOut. A comparison whose levels are expected
   * to take longer is refused. Changing it reruns nothing.
   */
  @Size(max = Limits.MAX_WORD)
  @Default("24h")
  public String maxDuration;

  /** {@link #repetitions}, or 1. */
  public int repetitionsOrDefault() {
    return repetitions == null ? 1 : repetitions;
  }

  /** {@link #equivalenceMargin}, or its default. */
  public double equivalenceMarginOrDefault() {
    return equivalenceMargin == null ? DEFAULT_EQUIVALENCE_MARGIN : equivalenceMargin;
  }

  /** {@link #requireFacts}, or true. */
  public boolean requireFactsOrDefault() {
    return requireFacts == null || requireFacts;
  }

  /** {@link #maxFailedRatio}, or its default. */
  public double maxFailedRatioOrDefault() {
    return maxFailedRatio == null ? DEFAULT_MAX_FAILED_RATIO : maxFailedRatio;
  }
}
