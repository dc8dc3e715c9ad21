package dev.srt.operator.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.VerdictSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

/**
 * A run whose goodput % dips below the attainment and recovers keeps its first crossing as its
 * capacity, and every page that shows capacities says so (the text report: ApplyOutputTest).
 */
class CapacityRecoveryWarningTest {
  static final String WARNING = "cache-aware run r00000002: goodput % recovers above the attainment at c=32 after missing it at c=16; "
      + "the capacity is the first crossing";

  /** LoadChartTest's ladder (8, 16, 32, 64 against 90%), cache-aware's second run dipping at 16. */
  static ComparisonReport report(RouterComparison rc) {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("round-robin", List.of(LoadChartTest.run(1, new double[] {30, 38, 40, 41}, new double[] {1, 1, 0.7, 0.3}),
        LoadChartTest.run(2, new double[] {30, 38, 40, 41}, new double[] {1, 1, 0.72, 0.32}),
        LoadChartTest.run(3, new double[] {30, 38, 40, 41}, new double[] {1, 1, 0.68, 0.28})));
    runs.put("cache-aware", List.of(LoadChartTest.run(1, new double[] {35, 50, 60, 62}, new double[] {1, 1, 0.95, 0.6}),
        LoadChartTest.run(2, new double[] {35, 50, 60, 62}, new double[] {1, 0.85, 0.95, 0.62}),
        LoadChartTest.run(3, new double[] {35, 50, 60, 62}, new double[] {1, 1, 0.94, 0.58})));
    return ComparisonReport.of("capacity", runs, VerdictSettings.of(rc.getSpec()));
  }

  @Test
  void theDipKeepsTheFirstCrossingAndTheWarningIsInTheJsonTheMarkdownAndTheHtml() throws Exception {
    RouterComparison rc = LoadChartTest.comparison();
    ComparisonReport report = report(rc);
    // the second run: 8 + (1 - 0.9) / (1 - 0.85) · 8 = 13.33, not 32 + (0.95 - 0.9) / (0.95 - 0.62) · 32 = 36.85
    assertThat(report.warnings).containsExactly(WARNING);

    JsonNode json = Mappers.json().readTree(Mappers.json().writeValueAsString(report));
    assertThat(json.path("warnings")).extracting(JsonNode::asText).containsExactly(WARNING);

    String md = MarkdownReport.render(new ReportContext(report, rc, ReportFixtures.cluster(), "test", ReportFixtures.GENERATED));
    assertThat(md).contains("Warnings:\n\n- " + MarkdownReport.cell(WARNING) + "\n");

    String html = HtmlReport.render(new ReportContext(report, rc, ReportFixtures.cluster(), "test", ReportFixtures.GENERATED));
    assertThat(Jsoup.parse(html).select("#warnings li").eachText()).containsExactly(WARNING);
  }
}
