package dev.srt.operator.host;

import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.api.SloSpec;
import dev.srt.operator.plan.Ladder;
import dev.srt.operator.verdict.LatencyQuantiles;
import dev.srt.operator.verdict.Metric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The numbers of a finished run (or of one level of its ladder), computed on this side from the benchmark's own result files
 * (never from a line of events.jsonl, which anything in the run can write), or why there are none.
 *
 * @param metrics each known metric the files gave, as a plain non-negative decimal ({@code "748.2"})
 * @param problem null when the files could be read; else why there are no numbers (a malformed or
 *     oversized file, none at all), never text taken from a file
 * @param facts what the run recorded about itself (its facts.json, read by the same command), or
 *     why it has none; null when not read
 * @param levels each level of a ladder, read from its own directory; empty for one measurement
 * @param latency the TTFT and ITL distributions of the requests the tool recorded (for a report's
 *     CDFs; never in status), or null when it recorded none
 */
public record RunResults(Map<ResultMetric, String> metrics, String problem, RunFacts facts, List<Level> levels,
    LatencyQuantiles latency) {
  /** The numbers of one level of a ladder: its place (from 1), its load, what its files gave. */
  public record Level(int index, double load, RunResults results) {}

  /** A run's results directory, relative to its run directory. */
  public static final String RESULTS = "results";
  /** {@link #RESULTS} or one level's directory in it. */
  private static final Pattern RESULTS_DIRECTORY = Pattern.compile("results(/level-[1-9][0-9]{0,2})?");
  /** What {@link #read} allows the one remote command. */
  public static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern PLAIN_DECIMAL = Pattern.compile("\\d{1,16}(\\.\\d{1,17})?");
  private static final int MAX_PROBLEM_CHARS = 300;

  public RunResults {
    EnumMap<ResultMetric, String> copy = new EnumMap<>(ResultMetric.class);
    copy.putAll(metrics);
    copy.forEach((metric, value) -> {
      if (value == null || !PLAIN_DECIMAL.matcher(value).matches()) {
        throw new IllegalArgumentException(metric.key() + " is not a plain non-negative decimal: " + value);
      }
    });
    metrics = Collections.unmodifiableMap(copy);
    if (problem != null) {
      if (!metrics.isEmpty()) {
        throw new IllegalArgumentException("results with a problem have no metrics");
      }
      problem = ExecResult.abbreviate(problem.replaceAll("\\p{Cntrl}", "?"), MAX_PROBLEM_CHARS);
    }
    levels = levels == null ? List.of() : List.copyOf(levels);
  }

  public RunResults(Map<ResultMetric, String> metrics, String problem, RunFacts facts) {
    this(metrics, problem, facts, List.of(), null);
  }

  public RunResults(Map<ResultMetric, String> metrics, String problem) {
    this(metrics, problem, null);
  }

  /** These results with the run's facts. */
  public RunResults withFacts(RunFacts runFacts) {
    return new RunResults(metrics, problem, runFacts, levels, latency);
  }

  public static RunResults of(Map<ResultMetric, String> metrics) {
    return new RunResults(metrics, null);
  }

  /** These numbers with the distributions of the requests they were computed from. */
  public RunResults withLatency(LatencyQuantiles quantiles) {
    return new RunResults(metrics, problem, facts, levels, quantiles);
  }

  public static RunResults none(String problem) {
    return new RunResults(Map.of(), problem);
  }

  /** Each metric's key and its value as the files gave it ({@code "748.2"}), in {@link ResultMetric} order. */
  public Map<String, String> byKey() {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    metrics.forEach((metric, value) -> out.put(metric.key(), value));
    return out;
  }

  /** As {@code status.arms[].results}: the numbers, under the same names; null when there are none. */
  public BenchmarkResults asStatus() {
    if (metrics.isEmpty()) {
      return null;
    }
    BenchmarkResults out = new BenchmarkResults();
    metrics.forEach((metric, value) -> Metric.of(metric.key()).orElseThrow().set(out, Double.parseDouble(value)));
    return out;
  }

  /**
   * Reads the result files of a finished run's {@code results/} with one remote command (each file
   * size-limited on the host) and computes its numbers, without an SLO (no goodput). Anything wrong
   * with the files is a {@link #problem()}.
   *
   * @throws HostException only when the host cannot be asked (then try again later)
   */
  public static RunResults read(Backend backend, RunRef run) throws HostException {
    return read(backend, run, RESULTS, null);
  }

  /**
   * Reads the result files of one results directory of a finished run (its {@code results/}, or
   * {@link Ladder#resultsDir} of one level of a ladder) with one remote command, each file
   * size-limited on the host, and computes their numbers: goodput and its ratio with {@code slo}.
   * The per-request data stays on the host; only the numbers come back. Anything wrong with the
   * files is a {@link #problem()}.
   *
   * @param resultsDir relative to the run directory: {@code results} or {@code results/level-<i>}
   * @param slo the comparison's spec.slo, or null
   * @throws HostException only when the host cannot be asked (then try again later)
   * @throws IllegalArgumentException for a results directory that is not one of those
   */
  public static RunResults read(Backend backend, RunRef run, String resultsDir, SloSpec slo) throws HostException {
    if (!RESULTS_DIRECTORY.matcher(resultsDir).matches()) {
      throw new IllegalArgumentException("not a results directory of a run: " + resultsDir);
    }
    return ResultsFetch.read(backend.transport(), backend.runDirectory(run).path(), resultsDir, slo, TIMEOUT);
  }

  /**
   * Reads the levels {@code finished} of a run's ladder, one remote command each, with the run's
   * facts (read beside the first). A level whose files give no numbers keeps why in its results.
   *
   * @throws HostException only when the host cannot be asked (then try again later)
   */
  public static RunResults readLevels(Backend backend, RunRef run, List<Ladder.Level> finished, SloSpec slo) throws HostException {
    List<Level> levels = new ArrayList<>();
    RunFacts facts = null;
    for (Ladder.Level level : finished) {
      RunResults read = read(backend, run, level.resultsDir(), slo);
      facts = facts == null ? read.facts() : facts;
      levels.add(new Level(level.index(), level.load(), read.withFacts(null)));
    }
    return new RunResults(Map.of(), null, facts, levels, null);
  }

  /** As {@code status.arms[].levels}: each level read, with its numbers or why it has none. */
  public List<LevelResults> levelsAsStatus() {
    List<LevelResults> out = new ArrayList<>();
    for (Level l : levels) {
      LevelResults r = new LevelResults(l.load(), l.results().asStatus());
      r.message = l.results().problem();
      out.add(r);
    }
    return out;
  }
}
