package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The load ladder of a comparison: the benchmark runs once per level, in ascending order, within
 * one run of each arm (the workers load once). Each level sends prompts of its own, the same in
 * every arm (seed plus the level's index from 0), so that no level finds prefixes cached by the
 * one before. Closed loop (concurrency) and open loop
 * (request-rate) never mix in one comparison.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14].all(i, i + 1 >= size(self.levels) || self.levels[i] < self.levels[i + 1])",
    message = "levels must ascend, each larger than the one before", fieldPath = ".levels")
@ValidationRule(value = "!has(self.requestsPerLevel) || !has(self.durationPerLevel)",
    message = "set requestsPerLevel or durationPerLevel, not both", fieldPath = ".durationPerLevel")
public class LoadSpec {
  /** Closed loop: a fixed number of requests in flight. */
  public static final String CONCURRENCY = "concurrency";
  /** Open loop: Poisson arrivals at a rate, in requests per second. */
  public static final String REQUEST_RATE = "request-rate";
  /** The most levels of one ladder. */
  public static final int MAX_LEVELS = 16;
  /** The largest concurrency level. */
  public static final int MAX_CONCURRENCY = 100_000;
  /** The largest request-rate level, in requests per second. */
  public static final int MAX_REQUEST_RATE = 1_000_000;
  /** The most requests of one level. */
  public static final int MAX_REQUESTS_PER_LEVEL = 10_000_000;

  /**
   * concurrency (closed loop: bench_serving --max-concurrency, AIPerf --concurrency) or
   * request-rate (open loop with Poisson arrivals: --request-rate, in requests per second).
   */
  @Required
  @Size(max = Limits.MAX_WORD)
  @OneOf(LoadMode.class)
  public String mode;

  /**
   * The loads to measure, 1 to 16 of them, ascending: concurrencies (whole numbers from 1) or request
   * rates (requests per second, above 0).
   */
  @Required
  @Size(min = 1, max = MAX_LEVELS)
  public List<@Min(0) @Max(MAX_REQUEST_RATE) Double> levels = new ArrayList<>();

  /**
   * Requests sent at each level (bench_serving --num-prompts, AIPerf --request-count). Default:
   * what workload.args says, else the tool's default.
   */
  @Min(1)
  @Max(MAX_REQUESTS_PER_LEVEL)
  public Integer requestsPerLevel;

  /**
   * How long each level sends requests, a duration such as 60s or 2m (AIPerf --benchmark-duration;
   * for bench_serving, request-rate mode only: rate times duration requests). Not with
   * requestsPerLevel.
   */
  @Size(max = Limits.MAX_WORD)
  public String durationPerLevel;

  /**
   * The pause between two levels, a duration such as 5s (0s for none): the requests of one level
   * are done when its benchmark exits, and the pause lets the engines' queues and caches settle
   * before the next level is measured. Default 5s.
   */
  @Size(max = Limits.MAX_WORD)
  public String drainBetweenLevels;

  /** Whether this is the closed loop (concurrency). */
  public boolean closedLoop() {
    return CONCURRENCY.equals(mode);
  }

  /** The unit a level (and a capacity) is given in: {@code concurrency} or {@code req/s}. */
  public String unit() {
    return unit(mode);
  }

  /** {@link #unit()} of a mode; null when the mode is neither. */
  public static String unit(String mode) {
    return CONCURRENCY.equals(mode) ? "concurrency" : REQUEST_RATE.equals(mode) ? "req/s" : null;
  }

  /** A level as a tool's flag takes it: {@code 32}, {@code 2.5} (never {@code 32.0} or an exponent). */
  public static String text(double level) {
    return BigDecimal.valueOf(level).stripTrailingZeros().toPlainString();
  }
}
