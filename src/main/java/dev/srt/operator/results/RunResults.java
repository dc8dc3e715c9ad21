package dev.srt.operator.results;

import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.verdict.LatencyQuantiles;
import dev.srt.operator.verdict.Metric;
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
      problem = abbreviate(problem.replaceAll("\\p{Cntrl}", "?"), MAX_PROBLEM_CHARS);
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

  /** As host/ExecResult.abbreviate: at most {@code max} characters, then "...". */
  private static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "...";
  }
}
