package dev.srt.operator.config;

import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.WorkloadSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

/**
 * How long the benchmarking of one run takes, as far as the spec says (issue 41, finding 3: a run
 * always ends). A level's length is known when it is given as a time ({@code durationPerLevel}) or
 * follows from one (an open-loop level's {@code requestsPerLevel} ÷ its rate); a closed-loop level
 * stops after a number of requests, which takes as long as the router makes it, and a benchmark
 * without a ladder stops after the tool's own count: those are unknown, and only
 * {@code spec.execution.maxDuration} bounds them. Warm-up requests are not counted.
 *
 * @param levelSeconds each benchmark's length in seconds, in the order they run (one without a
 *     ladder); an element is null where it is unknown
 * @param drainSeconds the pause between two levels
 * @param maxSeconds {@code spec.execution.maxDuration} in seconds
 * @param maxText {@code spec.execution.maxDuration} as written (or its default)
 * @param unknown why the length is unknown, for {@code unknown (...)}; null when it is known
 */
public record BenchmarkTime(List<Double> levelSeconds, long drainSeconds, long maxSeconds, String maxText, String unknown) {
  /** The default of {@code spec.execution.maxDuration}: a day. */
  public static final String DEFAULT_MAX_TEXT = "24h";
  public static final Duration DEFAULT_MAX = Duration.ofHours(24);
  /** The shortest {@code maxDuration}: a shorter one would end a benchmark before it measured anything. */
  public static final Duration MIN_MAX = Duration.ofMinutes(1);
  /** The pause between levels when {@code drainBetweenLevels} does not say. */
  public static final Duration DEFAULT_DRAIN = Duration.ofSeconds(5);
  /** The largest estimate of one run, in seconds (about 31,700 years). */
  private static final double MAX_PRINTED_SECONDS = 1e12;

  public BenchmarkTime {
    levelSeconds = Collections.unmodifiableList(new ArrayList<>(levelSeconds));
  }

  /** The benchmark time of {@code spec}, which has passed validation (an unreadable value counts as unknown). */
  public static BenchmarkTime of(RouterComparisonSpec spec) {
    ExecutionSpec e = spec.execution;
    String maxText = e == null || e.maxDuration == null ? DEFAULT_MAX_TEXT : e.maxDuration;
    long max = Durations.isValid(maxText) ? Durations.parse(maxText, DEFAULT_MAX).toSeconds() : DEFAULT_MAX.toSeconds();
    WorkloadSpec w = spec.workload;
    LoadSpec load = w == null ? null : w.load;
    if (load == null || load.levels == null || load.levels.isEmpty()) {
      List<Double> one = new ArrayList<>();
      one.add(null);
      return new BenchmarkTime(one, 0, max, maxText, "without spec.workload.load the benchmark stops after its own request count");
    }
    Duration duration = Durations.isValid(load.durationPerLevel) ? Durations.parse(load.durationPerLevel, null) : null;
    boolean closed = load.closedLoop();
    List<Double> levels = new ArrayList<>();
    for (Double rate : load.levels) {
      if (duration != null) {
        levels.add(duration.toMillis() / 1000.0);
      } else if (!closed && load.requestsPerLevel != null && rate != null && rate > 0 && Double.isFinite(rate)) {
        levels.add(load.requestsPerLevel / rate);
      } else {
        levels.add(null);
      }
    }
    String unknown = levels.contains(null)
        ? (closed ? "closed-loop levels" : "levels") + " stop after "
            + (load.requestsPerLevel != null ? load.requestsPerLevel + " requests" : "the benchmark's own request count")
        : null;
    long drain = Durations.isValid(load.drainBetweenLevels) ? Durations.parse(load.drainBetweenLevels, DEFAULT_DRAIN).toSeconds()
        : DEFAULT_DRAIN.toSeconds();
    return new BenchmarkTime(levels, drain, max, maxText, unknown);
  }

  /** The benchmarking of one run in whole seconds (the levels and the pauses between them), when every level's length is known. */
  public OptionalLong perRunSeconds() {
    if (unknown != null) {
      return OptionalLong.empty();
    }
    double sum = drainSeconds * (double) (levelSeconds.size() - 1);
    for (Double s : levelSeconds) {
      sum += s;
    }
    // Capped far above any valid spec (validation bounds each level): an invalid one printed by
    // validate -o json cannot overflow the totals over arms and repetitions.
    return OptionalLong.of((long) Math.ceil(Math.min(sum, MAX_PRINTED_SECONDS)));
  }

  /** Whether the known estimate of one run is longer than {@code maxDuration}. */
  public boolean exceedsMax() {
    return perRunSeconds().isPresent() && perRunSeconds().getAsLong() > maxSeconds;
  }

  /**
   * One line for people: {@code estimated benchmark time: 6 levels x 1m + 5 pauses x 5s = 6m25s per
   * run; 19m15s per arm (3 runs), 38m30s in total (2 arms); at most 24h per run
   * (execution.maxDuration)}, or {@code unknown (why)} in place of the numbers.
   */
  public String describe(int arms, int repetitions) {
    String bound = "; at most " + maxText + " per run (execution.maxDuration)";
    OptionalLong perRun = perRunSeconds();
    if (perRun.isEmpty()) {
      return "estimated benchmark time: unknown (" + unknown + ")" + bound;
    }
    long run = perRun.getAsLong();
    return "estimated benchmark time: " + terms() + " = " + text(run) + " per run; " + text(run * repetitions) + " per arm ("
        + repetitions + " run" + (repetitions == 1 ? "" : "s") + "), " + text(run * repetitions * arms) + " in total (" + arms + " arm"
        + (arms == 1 ? "" : "s") + ")" + bound;
  }

  /** {@code 6 levels x 1m + 5 pauses x 5s}, or {@code 3 levels of 10s to 1m40s + ...} when the levels differ. */
  private String terms() {
    int n = levelSeconds.size();
    double min = levelSeconds.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    double max = levelSeconds.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    String levels = n == 1 ? "1 level of " + seconds(max)
        : min == max ? n + " levels x " + seconds(max) : n + " levels of " + seconds(max) + " to " + seconds(min);
    return n > 1 && drainSeconds > 0 ? levels + " + " + (n - 1) + " pause" + (n == 2 ? "" : "s") + " x " + text(drainSeconds) : levels;
  }

  private static String seconds(double s) {
    return text((long) Math.ceil(s));
  }

  /** {@code 1h2m5s}, {@code 6m}, {@code 0s}: whole seconds as a duration field is written. */
  public static String text(long seconds) {
    long h = seconds / 3600;
    long m = seconds % 3600 / 60;
    long s = seconds % 60;
    StringBuilder out = new StringBuilder();
    if (h > 0) {
      out.append(h).append('h');
    }
    if (m > 0) {
      out.append(m).append('m');
    }
    if (s > 0 || out.length() == 0) {
      out.append(s).append('s');
    }
    return out.toString();
  }
}
