package dev.srt.operator.report;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.Verdict;
import dev.srt.operator.plan.ArmDiff;
import dev.srt.operator.verdict.Cells;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.ComparisonReport.ArmReport;
import dev.srt.operator.verdict.Metric;
import dev.srt.operator.verdict.Verdicts;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The rows of the report's tables as text, shared by the HTML and the Markdown report so that both
 * say the same thing: the summary (metrics down, arms across), the verdicts, the runs, the reasons
 * some verdicts are not comparable, and the fields in which the arms differ.
 */
final class ReportTables {
  /** A row of the summary: {@code mean TTFT (ms) ↓} and one cell per arm. */
  record SummaryRow(String label, List<String> cells) {}

  /**
   * One verdict; {@code mark} repeats the verdict as a sign, for a reader who cannot tell colours
   * apart; {@code note} says why an interval that excludes 0 is no better or worse.
   */
  record VerdictRow(String arm, String level, String metric, String delta, String interval, String p, String detectable,
      String verdict, String mark, String reason, String note) {}

  record RunRow(String arm, String repetition, String runId, String phase, String startedAt, String finishedAt, String runDir,
      String jobId, String message) {}

  /** A field an arm sets differently: its value in each arm ({@code -} where unset). */
  record DiffRow(String field, List<String> values) {}

  private ReportTables() {}

  static List<String> arms(ComparisonReport report) {
    return report.arms.stream().map(a -> a.name).toList();
  }

  static List<SummaryRow> summary(ComparisonReport report) {
    List<SummaryRow> rows = new ArrayList<>();
    rows.add(new SummaryRow("succeeded runs (n)", report.arms.stream().map(a -> a.summary == null ? "0" : String.valueOf(a.summary.n)).toList()));
    rows.add(new SummaryRow("finished runs", report.arms.stream().map(a -> a.summary == null ? "0" : String.valueOf(a.summary.runs)).toList()));
    rows.add(new SummaryRow("failed requests", report.arms.stream().map(a -> Cells.failedRatio(a.summary)).toList()));
    for (Metric m : MetricText.SUMMARY) {
      List<String> cells = report.arms.stream().map(a -> Cells.meanPlusMinus(a.summary, m)).toList();
      if (cells.stream().anyMatch(c -> !c.equals("-"))) {
        rows.add(new SummaryRow(MetricText.heading(m), cells));
      }
    }
    return rows;
  }

  static List<VerdictRow> verdicts(ComparisonReport report) {
    return report.verdicts.stream().map(v -> verdict(v, report.loadUnit)).toList();
  }

  static VerdictRow verdict(Verdict v, String loadUnit) {
    String delta = v.deltaPct == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", v.deltaPct);
    String interval = v.ci95Pct == null || v.ci95Pct.size() != 2 ? "-"
        : String.format(Locale.ROOT, "[%+.1f%%, %+.1f%%]", v.ci95Pct.get(0), v.ci95Pct.get(1));
    String metric = Metric.of(v.metric).map(MetricText::heading).orElse(v.metric + (Verdicts.CAPACITY.equals(v.metric) ? " ↑" : ""));
    return new VerdictRow(v.arm, Cells.level(v.level, loadUnit), metric, delta, interval, Cells.pValues(v), Cells.detectable(v),
        v.verdict, mark(v.verdict), v.reason == null ? "" : v.reason, v.note == null ? "" : v.note);
  }

  private static String mark(String verdict) {
    return switch (verdict == null ? "" : verdict) {
      case "better" -> "▲";
      case "worse" -> "▼";
      case "equivalent" -> "=";
      case "inconclusive" -> "~";
      default -> "?";
    };
  }

  static List<RunRow> runs(ComparisonReport report) {
    List<RunRow> rows = new ArrayList<>();
    for (ArmReport arm : report.arms) {
      for (ArmRun r : arm.runs) {
        rows.add(new RunRow(arm.name, r.repetition == null ? "-" : r.repetition.toString(), dash(r.runId), dash(r.phase),
            dash(r.startedAt), dash(r.finishedAt), dash(r.runDir), dash(r.jobId), r.message == null ? "" : r.message));
      }
    }
    return rows;
  }

  /** Each distinct reason a verdict is not comparable, with the arm it concerns: {@code dynamo-kv: ... failed 4.2% ...}. */
  static List<String> notComparable(ComparisonReport report) {
    Set<String> reasons = new LinkedHashSet<>();
    report.verdicts.stream().filter(v -> "not-comparable".equals(v.verdict) && v.reason != null)
        .forEach(v -> reasons.add(v.arm + " vs " + v.baseline + ": " + v.reason));
    return List.copyOf(reasons);
  }

  static List<DiffRow> diff(ArmDiff.Result diff) {
    return diff.fields().stream()
        .map(f -> new DiffRow(f.field(), diff.arms().stream().map(a -> f.values().get(a) == null ? "-" : f.values().get(a)).toList()))
        .toList();
  }

  private static String dash(String s) {
    return s == null ? "-" : s;
  }
}
