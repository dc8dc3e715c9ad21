package dev.srt.operator.report;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.verdict.ComparisonReport;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Everything a report page shows: the runs, summaries and verdicts, the spec they ran from (what
 * was held constant, what differs), the cluster they ran on, and where and when this was read.
 *
 * @param report the arms' runs, summaries and verdicts
 * @param comparison the RouterComparison the runs belong to
 * @param cluster the GpuCluster the arms ran on, or null when it is not known (e.g. read from
 *     Kubernetes without it)
 * @param source where the runs were read from, e.g. {@code GpuCluster h100-box over ssh} or {@code
 *     Kubernetes default/qwen3-32b-routers}
 * @param generatedAt when the report was made
 * @param notes what a reader must know before reading the numbers (e.g. the runs ran with another
 *     spec than today's), one sentence each
 * @param distributions the arms' TTFT and ITL distributions to draw as CDFs, or null when the
 *     report was read without them (from Kubernetes: the status keeps no per-request data)
 * @param generator what made the report, e.g. {@code srt-operator 0.1.0 (commit 4d86f6f)}, or null
 */
public record ReportContext(ComparisonReport report, RouterComparison comparison, GpuCluster cluster, String source,
    Instant generatedAt, List<String> notes, Distributions distributions, String generator) {
  public ReportContext {
    Objects.requireNonNull(report, "report");
    Objects.requireNonNull(comparison, "comparison");
    Objects.requireNonNull(comparison.getSpec(), "comparison.spec");
    Objects.requireNonNull(generatedAt, "generatedAt");
    notes = notes == null ? List.of() : List.copyOf(notes);
  }

  public ReportContext(ComparisonReport report, RouterComparison comparison, GpuCluster cluster, String source, Instant generatedAt,
      List<String> notes) {
    this(report, comparison, cluster, source, generatedAt, notes, null, null);
  }

  public ReportContext(ComparisonReport report, RouterComparison comparison, GpuCluster cluster, String source, Instant generatedAt) {
    this(report, comparison, cluster, source, generatedAt, List.of(), null, null);
  }
}
