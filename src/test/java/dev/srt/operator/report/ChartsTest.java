package dev.srt.operator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.junit.jupiter.api.Test;

class ChartsTest {
  static final String ARM = "a<b>\"&'</svg><script>x</script>";

  static ComparisonReport report() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("base", List.of(run("base", 1, 100), run("base", 2, 110), run("base", 3, 105)));
    runs.put(ARM, List.of(run(ARM, 1, 80), run(ARM, 2, 82)));
    return ComparisonReport.of("c", runs, "base", 0.01);
  }

  private static ArmRun run(String arm, int repetition, double throughput) {
    return ReportFixtures.run("c", arm, repetition, repetition, "Succeeded",
        new ReportFixtures.Numbers(throughput, 400, 1200, 0.5, 100, 0));
  }

  @Test
  void aStripPlotIsWellFormedSvgWithArmNamesAsText() {
    String svg = StripChart.draw(report(), Metric.REQUEST_THROUGHPUT);
    Document xml = Jsoup.parse(svg, Parser.xmlParser());
    assertThat(xml.select("script")).isEmpty();
    assertThat(xml.select("text.arm").eachText()).containsExactly("base", "a<b>\"&'</svg><scr…");
    assertThat(xml.select("circle.run title").eachText()).last().asString().startsWith(ARM + " run 2 (");
  }

  @Test
  void aHigherValueIsDrawnHigher() {
    Document xml = Jsoup.parse(StripChart.draw(report(), Metric.REQUEST_THROUGHPUT), Parser.xmlParser());
    List<Double> ys = xml.select("circle.run").stream().map(c -> Double.parseDouble(c.attr("cy"))).toList();
    // base: 100, 110, 105 req/s
    assertThat(ys.get(1)).isLessThan(ys.get(2));
    assertThat(ys.get(2)).isLessThan(ys.get(0));
    // the other arm's 80 and 82 lie below all of base's
    assertThat(ys.get(3)).isGreaterThan(ys.get(0));
  }

  @Test
  void scalesHaveRoundTicksAroundTheData() {
    assertThat(Scale.covering(0, 152.1 * 1.12, true).ticks()).containsExactly(0.0, 50.0, 100.0, 150.0, 200.0);
    Scale cache = Scale.covering(36.9, 66.1, false);
    assertThat(cache.ticks()).first().isEqualTo(30.0);
    assertThat(cache.ticks()).last().isEqualTo(70.0);
    assertThat(cache.label(cache.step())).isEqualTo("10");
    assertThat(Scale.covering(0.61, 0.64, false).label(0.62)).isEqualTo("0.62");
    Scale quarters = Scale.covering(0, 12, true);
    assertThat(quarters.step()).isEqualTo(2.5);
    assertThat(quarters.label(2.5)).isEqualTo("2.5");
    assertThat(quarters.label(5)).isEqualTo("5.0");
    assertThat(Scale.covering(5, 5, false).ticks()).hasSizeGreaterThan(1);
  }
}
