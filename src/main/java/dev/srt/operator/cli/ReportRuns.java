package dev.srt.operator.cli;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.Metric;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** {@code report -o wide}: after the summary, one row per run of every arm, with its own numbers. */
final class ReportRuns {
  private static final List<Metric> COLUMNS = List.of(Metric.REQUEST_THROUGHPUT, Metric.MEAN_TTFT_MS, Metric.P99_TTFT_MS,
      Metric.ENGINE_CACHE_HIT_RATE, Metric.FAILED);

  private ReportRuns() {}

  static void print(ComparisonReport report, List<String> arms, PrintStream out) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("ARM", "RUN", "REP", "PHASE", "REQ/S", "MEAN TTFT MS", "P99 TTFT MS", "CACHE HIT", "FAILED", "JOB", "FINISHED", "RUN DIR"));
    for (String arm : arms) {
      ComparisonReport.ArmReport a = report.arm(arm);
      for (ArmRun r : a == null ? List.<ArmRun>of() : a.runs) {
        List<String> row = new ArrayList<>(List.of(arm, dash(r.runId), r.repetition == null ? "-" : String.valueOf(r.repetition), dash(r.phase)));
        for (Metric m : COLUMNS) {
          Double v = m.of(r.results);
          row.add(v == null ? "-" : m.format(v));
        }
        row.add(dash(r.jobId));
        row.add(dash(r.finishedAt));
        row.add(dash(r.runDir));
        rows.add(row);
      }
    }
    out.println();
    out.println("runs:");
    Table.print(rows, out);
    out.flush();
  }

  private static String dash(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }
}
