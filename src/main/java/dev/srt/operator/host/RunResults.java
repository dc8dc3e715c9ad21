package dev.srt.operator.host;

import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.verdict.Metric;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A finished run's headline numbers, computed on this side from the benchmark's own result files
 * (never from a line of events.jsonl, which anything in the run can write), or why there are none.
 *
 * @param metrics each known metric the files gave, as a plain non-negative decimal ({@code "748.2"})
 * @param problem null when the files could be read; else why there are no numbers (a malformed or
 *     oversized file, none at all), never text taken from a file
 * @param facts what the run recorded about itself (its facts.json, read by the same command), or
 *     why it has none; null when not read
 */
public record RunResults(Map<ResultMetric, String> metrics, String problem, RunFacts facts) {
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
  }

  public RunResults(Map<ResultMetric, String> metrics, String problem) {
    this(metrics, problem, null);
  }

  /** These results with the run's facts. */
  public RunResults withFacts(RunFacts runFacts) {
    return new RunResults(metrics, problem, runFacts);
  }

  public static RunResults of(Map<ResultMetric, String> metrics) {
    return new RunResults(metrics, null);
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
   * Reads the result files of a finished run with one remote command (each file size-limited on
   * the host) and computes its numbers. Anything wrong with the files is a {@link #problem()}.
   *
   * @throws HostException only when the host cannot be asked (then try again later)
   */
  public static RunResults read(Backend backend, RunRef run) throws HostException {
    return ResultsFetch.read(backend.transport(), backend.runDirectory(run).path(), TIMEOUT);
  }
}
