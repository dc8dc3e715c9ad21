package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmSummary;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.MetricSummary;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** An arm's finished runs summed up: per metric over its succeeded runs, at one load level. */
public final class Summaries {

  private Summaries() {}

  /** The succeeded runs among {@code runs}. */
  static List<ArmRun> succeeded(List<ArmRun> runs) {
    return runs.stream().filter(r -> r.phase() == ArmPhase.Succeeded).toList();
  }

  /**
   * The numbers of the succeeded runs at {@code load}: a run's results for null (a comparison
   * without a ladder), else its level of that load; runs without them are left out.
   */
  static List<BenchmarkResults> results(List<ArmRun> runs, Double load) {
    return succeeded(runs).stream().map(r -> at(r, load)).filter(Objects::nonNull).toList();
  }

  /** A run's numbers at {@code load} (null: its only results), or null. */
  static BenchmarkResults at(ArmRun run, Double load) {
    if (load == null) {
      return run.results;
    }
    if (run.levels == null) {
      return null;
    }
    return run.levels.stream().filter(l -> l.load != null && l.load.doubleValue() == load).map(l -> l.results)
        .filter(Objects::nonNull).findFirst().orElse(null);
  }

  /** The values of {@code metric} in {@code results} that have it. */
  static double[] values(List<BenchmarkResults> results, Metric metric) {
    return results.stream().map(metric::of).filter(v -> v != null && Double.isFinite(v)).mapToDouble(Double::doubleValue).toArray();
  }

  /** The summary of runs without a ladder. */
  public static ArmSummary of(List<ArmRun> runs) {
    return at(runs, null);
  }

  /** The summary of the runs' numbers at {@code load} (null: runs without a ladder). */
  public static ArmSummary at(List<ArmRun> runs, Double load) {
    List<BenchmarkResults> results = results(runs, load);
    ArmSummary s = counts(runs, results.size());
    s.failedRatio = failedRatio(results);
    for (Metric m : Metric.values()) {
      double[] xs = values(results, m);
      if (xs.length > 0) {
        s.metrics.put(m.key(), summary(xs, m.share()));
      }
    }
    return s;
  }

  /**
   * A ladder's runs in one summary without metrics (those are per level): how many succeeded and
   * finished, and the failed requests over every level of the succeeded runs.
   */
  public static ArmSummary overLevels(List<ArmRun> runs) {
    List<ArmRun> ok = succeeded(runs);
    ArmSummary s = counts(runs, ok.size());
    s.failedRatio = failedRatio(ok.stream().filter(r -> r.levels != null).flatMap(r -> r.levels.stream())
        .map((LevelResults l) -> l.results).filter(Objects::nonNull).toList());
    return s;
  }

  private static ArmSummary counts(List<ArmRun> runs, int n) {
    ArmSummary s = new ArmSummary();
    s.n = n;
    s.runs = (int) runs.stream().filter(r -> r.phase != null).count();
    return s;
  }

  /** Failed over all requests, when the benchmark reported both; else null. */
  static Double failedRatio(List<BenchmarkResults> results) {
    long completed = 0;
    long failed = 0;
    boolean known = false;
    for (BenchmarkResults r : results) {
      if (r.completed != null && r.failed != null) {
        completed += r.completed;
        failed += r.failed;
        known = true;
      }
    }
    return known && completed + failed > 0 ? (double) failed / (completed + failed) : null;
  }

  /** The summary of {@code xs}; a share's interval stays inside 0 to 1 ({@link BoundedIntervals#share}). */
  static MetricSummary summary(double[] xs, boolean share) {
    MetricSummary ms = new MetricSummary();
    ms.mean = Statistics.mean(xs);
    ms.min = Arrays.stream(xs).min().orElseThrow();
    ms.max = Arrays.stream(xs).max().orElseThrow();
    if (xs.length > 1) {
      ms.stddev = Math.sqrt(Statistics.variance(xs));
      ms.ci95 = (share ? BoundedIntervals.share(xs) : Statistics.meanInterval(xs)).asList();
    }
    return ms;
  }
}
