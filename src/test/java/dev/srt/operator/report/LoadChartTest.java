package dev.srt.operator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.SloSpec;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.LatencyQuantiles;
import dev.srt.operator.verdict.Metric;
import dev.srt.operator.verdict.VerdictSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.Test;

/** A ladder's report: each metric against load per arm with its band, goodput % with the SLO and the capacities. */
class LoadChartTest {
  static final double[] LOADS = {8, 16, 32, 64};

  static ArmRun run(int repetition, double[] rps, double[] goodput) {
    ArmRun r = new ArmRun();
    r.phase = "Succeeded";
    r.runId = "r0000000" + repetition;
    r.repetition = repetition;
    r.facts = dev.srt.operator.verdict.AgreeingFacts.of();
    r.levels = new ArrayList<>();
    for (int i = 0; i < LOADS.length; i++) {
      BenchmarkResults b = new BenchmarkResults();
      b.requestThroughput = rps[i] + repetition;
      b.goodputRatio = goodput[i];
      b.p99TtftMs = 100.0 * (i + 1);
      b.completed = 100L;
      b.failed = 0L;
      r.levels.add(new LevelResults(LOADS[i], b));
    }
    return r;
  }

  static RouterComparison comparison() {
    RouterComparison rc = ReportFixtures.comparison(ReportFixtures.EXAMPLE);
    rc.getSpec().workload.load = new LoadSpec();
    rc.getSpec().workload.load.mode = "concurrency";
    rc.getSpec().workload.load.levels = List.of(8.0, 16.0, 32.0, 64.0);
    rc.getSpec().slo = new SloSpec();
    rc.getSpec().slo.e2eMs = 1500.0;
    rc.getSpec().slo.attainment = 0.9;
    rc.getSpec().execution.baseline = "round-robin";
    rc.getSpec().execution.verdictMetrics = List.of("request_throughput", "goodput_ratio", "p99_ttft_ms");
    return rc;
  }

  static ComparisonReport report(RouterComparison rc) {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("round-robin", List.of(run(1, new double[] {30, 38, 40, 41}, new double[] {1, 1, 0.7, 0.3}),
        run(2, new double[] {30, 38, 40, 41}, new double[] {1, 1, 0.72, 0.32}), run(3, new double[] {30, 38, 40, 41},
            new double[] {1, 1, 0.68, 0.28})));
    runs.put("cache-aware", List.of(run(1, new double[] {35, 50, 60, 62}, new double[] {1, 1, 0.95, 0.6}),
        run(2, new double[] {35, 50, 60, 62}, new double[] {1, 1, 0.96, 0.62}), run(3, new double[] {35, 50, 60, 62},
            new double[] {1, 1, 0.94, 0.58})));
    return ComparisonReport.of("capacity", runs, VerdictSettings.of(rc.getSpec()));
  }

  @Test
  void eachArmIsACurveThroughItsMeansWithABandAndTheLoadsEvenlySpacedOnALogAxis() {
    Document xml = Jsoup.parse(LoadChart.draw(report(comparison()), Metric.REQUEST_THROUGHPUT, null), Parser.xmlParser());
    assertThat(xml.select("polyline.curve")).hasSize(2);
    assertThat(xml.select("polygon.ci")).hasSize(2);
    assertThat(xml.select("text.tick").eachText()).contains("8", "16", "32", "64", "requests in flight, log scale");
    // 8, 16, 32, 64 on a log axis: equal steps
    List<Double> xs = xml.select("circle.point").stream().limit(4).map(c -> Double.parseDouble(c.attr("cx"))).toList();
    assertThat(xs.get(1) - xs.get(0)).isCloseTo(xs.get(3) - xs.get(2), org.assertj.core.data.Offset.offset(0.2));
    // cache-aware carries more at c=64: its last point is drawn higher (smaller y)
    List<Element> points = xml.select("circle.point");
    assertThat(Double.parseDouble(points.get(7).attr("cy"))).isLessThan(Double.parseDouble(points.get(3).attr("cy")));
    assertThat(points.get(7).select("title").text()).startsWith("cache-aware at c=64: ");
  }

  @Test
  void theGoodputChartDrawsTheAttainmentAndEachArmsCapacity() {
    Document xml = Jsoup.parse(LoadChart.draw(report(comparison()), Metric.GOODPUT_RATIO, 0.9), Parser.xmlParser());
    assertThat(xml.select("line.slo")).hasSize(1);
    assertThat(xml.select("text.tick").eachText()).contains("SLO attainment 90%");
    assertThat(xml.select("line.capacity")).hasSize(2);
    assertThat(xml.select("circle.run title").eachText()).anySatisfy(t -> assertThat(t).startsWith("cache-aware capacity "))
        .anySatisfy(t -> assertThat(t).startsWith("round-robin capacity "));
  }

  @Test
  void theLadderPageDrawsEachMetricOnceAgainstLoadAndNoPerRunStrips() {
    RouterComparison rc = comparison();
    ReportContext ctx = new ReportContext(report(rc), rc, ReportFixtures.cluster(), "test", ReportFixtures.GENERATED);
    Document page = Jsoup.parse(HtmlReport.render(ctx));
    List<String> captions = page.select("figure.chart figcaption").eachText();
    assertThat(captions).hasSize(3).doesNotHaveDuplicates();
    assertThat(captions.get(0)).startsWith("Goodput % against load");
    assertThat(page.select("figure.chart svg polyline.curve")).hasSize(6);
    assertThat(page.select("svg circle.run")).as("capacity marks only, no per-run strips").hasSize(2);
  }

  @Test
  void theDistributionsAreDrawnAtTheHighestLoadEveryArmSustains() {
    ComparisonReport report = report(comparison());
    // goodput %: round-robin 100, 100, 70, 30; cache-aware 100, 100, 95, 60
    assertThat(Distributions.choose(report, 0.9)).isEqualTo(new Distributions.Choice(16, "the highest load every arm sustains within the SLO"));
    assertThat(Distributions.choose(report, 0.65).load()).isEqualTo(32);
    assertThat(Distributions.choose(report, null)).isEqualTo(new Distributions.Choice(64, "the highest load every arm has results at"));
    assertThat(Distributions.choose(report, 1.01).load()).as("none sustained: the lowest, where they compare best").isEqualTo(8);
  }

  private static LatencyQuantiles spread(double from, double to) {
    return LatencyQuantilesFixture.spread(from, to);
  }

  @Test
  void eachArmsTtftCdfOverlaidOnALogAxisAndNoItlChartWithoutGaps() {
    RouterComparison rc = comparison();
    Map<String, LatencyQuantiles> arms = new LinkedHashMap<>();
    arms.put("cache-aware", spread(20, 400));
    arms.put("round-robin", spread(40, 2000));
    Distributions d = new Distributions(16.0, "the highest load every arm sustains within the SLO", arms);
    ReportContext ctx = new ReportContext(report(rc), rc, ReportFixtures.cluster(), "test", ReportFixtures.GENERATED, List.of(), d, null);
    Document page = Jsoup.parse(HtmlReport.render(ctx));
    var cdfs = page.select("figure.chart[data-kind=cdf]");
    assertThat(cdfs).hasSize(1);
    assertThat(cdfs.first().attr("data-metric")).isEqualTo("ttft_cdf");
    assertThat(cdfs.select("figcaption").text()).startsWith("TTFT distribution at c=16 (the highest load every arm sustains within the SLO)");
    assertThat(cdfs.select("polyline.curve")).hasSize(2);
    assertThat(cdfs.select("text.tick").eachText()).contains("0%", "50%", "100%", "20", "100", "1000", "2000")
        .anySatisfy(t -> assertThat(t).contains("log scale"));
    // the curves keep the report's colours: round-robin is the first arm of the report
    List<Element> curves = cdfs.select("polyline.curve");
    assertThat(curves.get(1).attr("stroke")).isEqualTo(Palette.of(0));
    // round robin's median is slower: drawn further right at 50%
    var medians = cdfs.select("circle.point").stream().filter(c -> c.select("title").text().contains(": p50 ")).toList();
    assertThat(medians).hasSize(2);
    assertThat(Double.parseDouble(medians.get(1).attr("cx"))).isGreaterThan(Double.parseDouble(medians.get(0).attr("cx")));
    assertThat(medians.get(1).select("title").text()).isEqualTo("round-robin: p50 TTFT 283 ms");
  }

  @Test
  void aDistributionOverManyDecadesGetsOneTickPerDecadeInPlainNumbers() {
    RouterComparison rc = comparison();
    Distributions d = new Distributions(16.0, "chosen", Map.of("round-robin", spread(0.001, 20)));
    Document page = Jsoup.parse(HtmlReport.render(new ReportContext(report(rc), rc, ReportFixtures.cluster(), "test",
        ReportFixtures.GENERATED, List.of(), d, null)));
    List<String> ticks = page.select("figure.chart[data-kind=cdf] text.tick").eachText();
    assertThat(ticks).contains("0.001", "0.01", "0.1", "1", "10").doesNotContain("0.002", "0.0050", "0.005", "2", "5");
  }

  @Test
  void aPageReadWithoutDistributionsDrawsNoCdf() {
    RouterComparison rc = comparison();
    ReportContext ctx = new ReportContext(report(rc), rc, ReportFixtures.cluster(), "test", ReportFixtures.GENERATED);
    assertThat(Jsoup.parse(HtmlReport.render(ctx)).select("figure.chart[data-kind=cdf]")).isEmpty();
  }
}
