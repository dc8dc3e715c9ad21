package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmSummary;
import dev.srt.operator.api.MetricSummary;
import java.util.Arrays;
import java.util.List;

/** An arm's finished runs summed up: per metric over its succeeded runs. */
public final class Summaries {

  private Summaries() {}

  /** The succeeded runs among {@code runs}. */
  static List<ArmRun> succeeded(List<ArmRun> runs) {
    return runs.stream().filter(r -> r.phase() == ArmPhase.Succeeded && r.results != null).toList();
  }

  /** The values of {@code metric} in the succeeded runs that have it. */
  static double[] values(List<ArmRun> runs, Metric metric) {
    return succeeded(runs).stream().map(r -> metric.of(r.results)).filter(v -> v != null && Double.isFinite(v))
        .mapToDouble(Double::doubleValue).toArray();
  }

  public static ArmSummary of(List<ArmRun> runs) {
    ArmSummary s = new ArmSummary();
    List<ArmRun> ok = succeeded(runs);
    s.n = ok.size();
    s.runs = (int) runs.stream().filter(r -> r.phase != null).count();
    long completed = 0;
    long failed = 0;
    boolean known = false;
    for (ArmRun r : ok) {
      if (r.results.completed != null && r.results.failed != null) {
        completed += r.results.completed;
        failed += r.results.failed;
        known = true;
      }
    }
    if (known && completed + failed > 0) {
      s.failedRatio = (double) failed / (completed + failed);
    }
    for (Metric m : Metric.values()) {
      double[] xs = values(runs, m);
      if (xs.length == 0) {
        continue;
      }
      MetricSummary ms = new MetricSummary();
      ms.mean = Statistics.mean(xs);
      ms.min = Arrays.stream(xs).min().orElseThrow();
      ms.max = Arrays.stream(xs).max().orElseThrow();
      if (xs.length > 1) {
        ms.stddev = Math.sqrt(Statistics.variance(xs));
        ms.ci95 = Statistics.meanInterval(xs).asList();
      }
      s.metrics.put(m.key(), ms);
    }
    return s;
  }
}
