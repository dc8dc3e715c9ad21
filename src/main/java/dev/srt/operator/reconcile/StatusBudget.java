package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.Capacity;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.LevelSummary;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.api.Verdict;
import dev.srt.operator.run.LevelTables;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.Metric;
import dev.srt.operator.verdict.VerdictSettings;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What the operator's status keeps of runs over a load ladder. A status is one object in etcd, and
 * 10 arms × 10 levels × 10 runs with every metric and every digit would not fit: each level of a run
 * keeps only the metrics its verdicts, capacity and failure ratio are computed from, to six
 * significant digits, in a table ({@link LevelTables}); the verdicts' numbers keep four, and
 * their baseline is named once, in {@code status.baseline}. Every run's facts are kept as their
 * digests and counts. The full numbers, the facts and the per-request data stay in the run
 * directories, where {@code srt-operator report} reads them.
 */
final class StatusBudget {
  static final int RESULT_DIGITS = 6;
  static final int VERDICT_DIGITS = 4;
  /**
   * A verdict's reason is cut to this length over a ladder: a failed facts check's reason names
   * runs and facts and is the same for every verdict of an arm, hundreds of times; the FactsDiffer
   * condition says it once, and srt-operator report in full.
   */
  static final int MAX_REASON = 200;

  private StatusBudget() {}

  /** The metrics a ladder's level keeps in the status. */
  static Set<Metric> kept(RouterComparisonSpec spec) {
    // (shed_ratio stays in the run directories and the reports: one more metric per level and run would pass the budget)
    Set<Metric> keep = EnumSet.of(Metric.COMPLETED, Metric.FAILED, Metric.REQUEST_THROUGHPUT, Metric.GOODPUT_RATIO);
    keep.addAll(VerdictSettings.of(spec).metrics());
    return keep;
  }

  /** Compacts every run's facts; over a ladder, also trims the levels of every run and the verdicts' numbers. */
  static void compact(RouterComparisonStatus s, RouterComparisonSpec spec) {
    // facts as digests and counts: what differs is in the FactsDiffer condition, the facts in the run directories
    for (ArmStatus arm : s.arms) {
      arm.facts = arm.facts == null ? null : arm.facts.compact();
      for (ArmRun run : arm.runs == null ? List.<ArmRun>of() : arm.runs) {
        run.facts = run.facts == null ? null : run.facts.compact();
      }
    }
    if (spec == null || spec.workload == null || spec.workload.load == null) {
      return;
    }
    Set<Metric> keep = kept(spec);
    for (ArmStatus arm : s.arms) {
      arm.levels = levels(arm.levels, keep);
      for (ArmRun run : arm.runs == null ? List.<ArmRun>of() : arm.runs) {
        LevelTables.pack(run, keep, v -> round(v, RESULT_DIGITS));
      }
    }
    for (Verdict v : s.verdicts) {
      v.deltaPct = round(v.deltaPct, VERDICT_DIGITS);
      v.ci95Pct = v.ci95Pct == null ? null : v.ci95Pct.stream().map(x -> round(x, VERDICT_DIGITS)).toList();
      v.pValue = round(v.pValue, VERDICT_DIGITS);
      v.pAdjusted = round(v.pAdjusted, VERDICT_DIGITS);
      v.mdePct = round(v.mdePct, VERDICT_DIGITS);
      v.reason = v.reason == null || v.reason.length() <= MAX_REASON ? v.reason : v.reason.substring(0, MAX_REASON - 1) + "…";
      // status.baseline names it once for all
      v.baseline = null;
      // the note restates pValue and pAdjusted in words, and alpha is where pAdjusted meets 0.05: the reports print
      // both, the status keeps the two p-values
      v.note = null;
      v.alpha = null;
    }
  }

  /**
   * Each arm's per-level means and capacity from {@code report}, and the comparison's capacity line
   * (the Capacity column of {@code kubectl get routercomparisons}).
   */
  static void ladder(RouterComparisonStatus s, ComparisonReport report, RouterComparisonSpec spec) {
    if (report.loadUnit == null) {
      s.capacitySummary = null;
      return;
    }
    Set<Metric> keep = kept(spec);
    List<String> capacities = new ArrayList<>();
    for (ArmStatus arm : s.arms) {
      ComparisonReport.ArmReport r = report.arm(arm.name);
      if (r == null) {
        continue;
      }
      arm.levelSummaries = r.levels.stream().filter(l -> l.load != null && l.summary != null && l.summary.n > 0)
          .map(l -> summary(l, keep)).toList();
      arm.capacity = r.capacity;
      // an arm whose runs disagree (some beyond the ladder) has no value: "-", its reason is in the verdict
      capacities.add(arm.name + " " + (r.capacity != null && r.capacity.value != null ? capacityText(r.capacity) : "-"));
    }
    s.capacitySummary = capacities.isEmpty() ? null : String.join(", ", capacities) + " (" + report.loadUnit + ")";
  }

  /** {@code 16.6}, {@code <4} below the ladder, {@code >64} above it. */
  static String capacityText(Capacity c) {
    String value = LoadSpec.text(round(c.value, 3));
    return Capacity.BELOW.equals(c.bound) ? "<" + value : Capacity.ABOVE.equals(c.bound) ? ">" + value : value;
  }

  private static LevelSummary summary(ComparisonReport.LevelReport l, Set<Metric> keep) {
    LevelSummary out = new LevelSummary();
    out.load = l.load;
    out.n = l.summary.n;
    for (Metric m : keep) {
      var ms = l.summary.metrics.get(m.key());
      if (ms != null && ms.mean != null) {
        out.means.put(m.key(), round(ms.mean, RESULT_DIGITS));
      }
    }
    return out;
  }

  private static List<LevelResults> levels(List<LevelResults> levels, Set<Metric> keep) {
    if (levels == null) {
      return null;
    }
    List<LevelResults> out = new ArrayList<>();
    for (LevelResults l : levels) {
      LevelResults kept = new LevelResults(l.load, Metric.only(l.results, keep));
      if (kept.results != null) {
        for (Metric m : keep) {
          Double v = m.of(kept.results);
          if (v != null) {
            m.set(kept.results, round(v, RESULT_DIGITS));
          }
        }
      }
      kept.message = l.message;
      out.add(kept);
    }
    return out;
  }

  static Double round(Double v, int digits) {
    if (v == null || !Double.isFinite(v)) {
      return v;
    }
    return new BigDecimal(v).round(new MathContext(digits)).doubleValue();
  }
}
