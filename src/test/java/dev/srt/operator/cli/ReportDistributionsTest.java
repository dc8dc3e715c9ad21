package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.WorkloadSpec;
import dev.srt.operator.verdict.ComparisonReport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportDistributionsTest {
  private static RouterComparisonSpec ladder() {
    RouterComparisonSpec spec = new RouterComparisonSpec();
    spec.workload = new WorkloadSpec();
    spec.workload.load = new LoadSpec();
    spec.workload.load.mode = "concurrency";
    spec.workload.load.levels = List.of(8.0, 16.0, 32.0);
    return spec;
  }

  @Test
  void aLevelAskedForMustBeOneOfTheLadder() throws Exception {
    ComparisonReport report = new ComparisonReport();
    report.loadUnit = "concurrency";
    assertThatThrownBy(() -> ReportDistributions.of(report, ladder(), Map.of(), 12.0))
        .hasMessage("--cdf-load 12: not a level of spec.workload.load.levels (8, 16, 32)");
    assertThat(ReportDistributions.of(report, ladder(), Map.of(), 16.0).load()).isEqualTo(16.0);
    assertThat(ReportDistributions.of(report, ladder(), Map.of(), 16.0).why()).isEqualTo("asked for with --cdf-load");
  }

  @Test
  void oneLoadHasNoLevelToAskFor() {
    ComparisonReport report = new ComparisonReport();
    assertThatThrownBy(() -> ReportDistributions.of(report, new RouterComparisonSpec(), Map.of(), 8.0))
        .hasMessageContaining("--cdf-load: spec.workload.load sets no ladder");
  }
}
