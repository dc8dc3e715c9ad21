package dev.srt.operator.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
  static final Document HOSTILE = Jsoup.parse(HtmlReport.render(ReportFixtures.hostile()));
  static final Document EXAMPLE = Jsoup.parse(HtmlReport.render(ReportFixtures.example()));

  @Test
  void everyHeadlineMetricHasAStripPlotWithADotPerRunThatReportedIt() {
    List<Element> strips = HOSTILE.select("figure.chart[data-kind=strip]");
    assertThat(strips).extracting(f -> f.attr("data-metric"))
        .containsExactly("request_throughput", "p99_ttft_ms", "p99_itl_ms", "engine_cache_hit_rate", "mean_ttft_ms");
    for (Element figure : strips) {
      assertThat(figure.select("svg")).hasSize(1);
      // base 3, other 3, flaky 2: its failed run reported nothing
      Map<String, Long> perArm = figure.select("svg circle.run").stream()
          .collect(Collectors.groupingBy(c -> c.selectFirst("title").text().split(" ")[0], Collectors.counting()));
      assertThat(perArm).containsExactlyInAnyOrderEntriesOf(Map.of("base", 3L, "other", 3L, "flaky", 2L));
      assertThat(figure.select("svg line.mean")).hasSize(3);
      assertThat(figure.select("svg rect.ci")).hasSize(3);
    }
    assertThat(strips.get(0).select("circle.run title").eachText())
        .contains("base run 1 (" + ReportFixtures.hostile().report().arm("base").runs.get(0).runId + ", Succeeded): 150.00 req/s");
    assertThat(strips.get(3).select("circle.run title").eachText()).contains(
        "other run 2 (" + ReportFixtures.hostile().report().arm("other").runs.get(1).runId + ", Succeeded): 41.0%");
  }

  @Test
  void eachMetricIsDrawnOnceAsEveryRunWithItsMeanAndInterval() {
    List<String> drawn = HOSTILE.select("figure.chart").eachAttr("data-metric");
    assertThat(drawn).doesNotHaveDuplicates().contains("request_throughput", "mean_ttft_ms", "engine_cache_hit_rate");
    assertThat(HOSTILE.select("figure.chart").eachAttr("data-kind")).containsOnly("strip");
    Element ttft = HOSTILE.selectFirst("figure.chart[data-metric=mean_ttft_ms]");
    assertThat(ttft.select("figcaption").text()).isEqualTo("mean TTFT (ms) ↓: every run, the mean and its 95% interval");
    assertThat(ttft.select("svg circle.run")).hasSize(8);
  }

  @Test
  void theVerdictTableSaysEachVerdictInWordsAndColours() {
    List<Element> rows = HOSTILE.select("table.verdicts tbody tr");
    assertThat(rows).hasSize(8);
    assertThat(rows).extracting(r -> r.child(0).text() + " " + r.selectFirst(".verdict").text() + " " + r.className()).containsExactly(
        "other worse v-worse", "other worse v-worse", "other worse v-worse", "other worse v-worse",
        "flaky not-comparable v-not-comparable", "flaky not-comparable v-not-comparable",
        "flaky not-comparable v-not-comparable", "flaky not-comparable v-not-comparable");
    Element throughput = rows.get(0);
    assertThat(throughput.child(1).text()).isEqualTo("request throughput (req/s) ↑");
    assertThat(throughput.child(2).text()).isEqualTo("-19.7%");
    assertThat(throughput.child(3).text()).matches("\\[-\\d+\\.\\d%, -\\d+\\.\\d%]");
    assertThat(throughput.selectFirst(".mark").text()).isEqualTo("▼");
    assertThat(rows.get(4).selectFirst(".reason").text()).isEqualTo("flaky failed 6.3% of its requests (more than maxFailedRatio 1.0%)");
    assertThat(HOSTILE.select("#not-comparable li").eachText())
        .containsExactly("flaky vs base: flaky failed 6.3% of its requests (more than maxFailedRatio 1.0%)");

    List<Element> example = EXAMPLE.select("table.verdicts tbody tr");
    assertThat(example).extracting(r -> r.child(0).text() + " " + r.child(1).text() + " " + r.selectFirst(".verdict").text())
        .contains("sgl-round-robin engine cache hit rate (%) ↑ worse", "dynamo-kv request throughput (req/s) ↑ inconclusive",
            "dynamo-kv p99 ITL (ms) ↓ equivalent");
    assertThat(EXAMPLE.select("table.verdicts thead th").eachText())
        .containsExactly("arm", "metric", "difference", "95% interval", "p (Holm)", "detectable", "verdict");
    assertThat(EXAMPLE.select("table.verdicts tbody tr").get(0).child(4).text()).isEqualTo("0.0039 (Holm 0.0209)");
    assertThat(EXAMPLE.select("#verdicts p.note").text()).contains("equivalent: the 90% interval lies within the equivalence margin");
    // an interval off 0 under an inconclusive verdict says why, with both p-values; the detectable effect names its level
    Element cacheHit = example.stream().filter(r -> r.child(0).text().equals("dynamo-kv") && r.child(1).text().startsWith("engine cache hit"))
        .findFirst().orElseThrow();
    assertThat(cacheHit.child(3).text()).isEqualTo("[+0.0%, +6.8%]");
    assertThat(cacheHit.selectFirst("small.note").text()).isEqualTo("not significant after Holm: p 0.0495, Holm 0.1979");
    assertThat(cacheHit.child(5).text()).isEqualTo("7.1% at α 0.0125");
  }

  @Test
  void theSummaryTableHasEveryArmWithItsRunsFailuresAndMeans() {
    assertThat(HOSTILE.select("table.summary thead th").eachText()).containsExactly("mean ± half 95% interval", "base baseline", "other", "flaky");
    Map<String, List<String>> rows = HOSTILE.select("table.summary tbody tr").stream()
        .collect(Collectors.toMap(r -> r.selectFirst("th").text(), r -> r.select("td").eachText()));
    assertThat(rows.get("succeeded runs (n)")).containsExactly("3", "3", "2");
    assertThat(rows.get("finished runs")).containsExactly("3", "3", "3");
    assertThat(rows.get("failed requests")).containsExactly("0.0%", "0.0%", "6.3%");
    assertThat(rows.get("request throughput (req/s) ↑")).containsExactly("150.33 ± 3.79", "120.67 ± 7.59", "171.00 ± 12.71");
    assertThat(rows.get("engine cache hit rate (%) ↑")).containsExactly("63.0 ± 2.5%", "40.0 ± 2.5%", "60.5 ± 6.4%");
    assertThat(rows).containsKeys("mean TTFT (ms) ↓", "p99 TTFT (ms) ↓", "output throughput (tok/s) ↑", "mean ITL (ms) ↓");
  }

  @Test
  void whatWasHeldConstantIsListed() {
    Map<String, String> facts = facts(EXAMPLE);
    assertThat(facts.get("model")).isEqualTo("/models/Qwen3-32B-FP8 (served as Qwen/Qwen3-32B-FP8)");
    assertThat(facts.get("topology")).isEqualTo("2 aggregated workers × 4 GPUs on 1 node of 8 GPUs");
    assertThat(facts.get("engine")).isEqualTo("sglang --enable-metrics --page-size 64 --tensor-parallel-size 4");
    assertThat(facts.get("workload"))
        .isEqualTo("bench-serving --backend sglang-oai-chat --dataset-name generated-shared-prefix --num-prompts 1024, seed 42");
    assertThat(facts.get("Dynamo")).startsWith("commit 4dca1626b2708383514fcd65ac816ba7429c05a4 of https://github.com/ai-dynamo/dynamo");
    assertThat(facts.get("routers")).contains("sgl-cache-aware: sgl-router built from /src/sglang/sgl-router", "dynamo-kv: dynamo");
    assertThat(facts.get("cluster")).isEqualTo("h100-box: slurm over ssh bench@login-01.example.internal:22, Slurm partition batch, work dir /scratch/srt-operator");
    assertThat(facts.get("GPU")).isEqualTo("h100, 8 per node");
    assertThat(facts.get("execution")).isEqualTo("order interleaved, 3 repetitions per arm, baseline sgl-cache-aware, warm-up requests 32, max failed ratio 0.01");
  }

  @Test
  void theDiffOfTheArmsIsTheOneSrtOperatorDiffPrints() {
    assertThat(EXAMPLE.select("table.diff thead th").eachText()).containsExactly("field", "sgl-cache-aware", "sgl-round-robin", "dynamo-kv");
    Map<String, List<String>> rows = EXAMPLE.select("table.diff tbody tr").stream()
        .collect(Collectors.toMap(r -> r.child(0).text(), r -> r.select("td").eachText().subList(1, 4)));
    assertThat(rows.get("frontend.args.policy")).containsExactly("cache_aware", "round_robin", "-");
    assertThat(rows.get("frontend.type")).containsExactly("sgl-router", "sgl-router", "dynamo");
    assertThat(EXAMPLE.select("ul.parts li").eachText()).contains("benchmark command: identical in all arms");
  }

  @Test
  void everyRunIsListedWithItsIdRepetitionPhaseStartAndDirectory() {
    List<Element> rows = HOSTILE.select("table.runs tbody tr");
    assertThat(rows).hasSize(9);
    var failed = ReportFixtures.hostile().report().arm("flaky").runs.get(1);
    Element row = rows.stream().filter(r -> r.child(2).text().equals(failed.runId)).findFirst().orElseThrow();
    assertThat(row.select("td").eachText()).containsExactly("flaky", "2", failed.runId, "Failed", failed.startedAt, failed.finishedAt,
        failed.runDir, failed.jobId, "router exited: <img src=x onerror=alert(4)> | see router.log");
  }

  @Test
  void valuesFromTheSpecAndStatusAreTextNeverMarkup() {
    String html = HtmlReport.render(ReportFixtures.hostile());
    assertThat(HOSTILE.select("script, img, b")).isEmpty();
    assertThat(html).doesNotContain("<script", "<img", "<b>");
    assertThat(HOSTILE.title()).isEqualTo("Router comparison cmp-<script>alert(1)</script>");
    assertThat(HOSTILE.selectFirst("#comparison-name").text()).isEqualTo("cmp-<script>alert(1)</script>");
    assertThat(facts(HOSTILE).get("model")).startsWith("/models/<script>alert('model')</script>");
    assertThat(facts(HOSTILE).get("workload")).contains("--dataset-name <img src=x onerror=alert(2)>");
    assertThat(HOSTILE.selectFirst("header .meta").text()).contains("read from Kubernetes default/<b>cmp</b>");
    assertThat(HOSTILE.select("table.diff tbody tr").stream().filter(r -> r.child(0).text().equals("frontend.args.policy")).findFirst()
        .orElseThrow().child(2).text()).isEqualTo("round_robin\"><script>alert(3)</script>|x");
    // every chart's text is escaped too (the arm names are drawn in the charts)
    assertThat(HOSTILE.select("svg")).allSatisfy(svg -> assertThat(svg.select("script, foreignObject")).isEmpty());
  }

  @Test
  void thePageNeedsNothingFromOutside() {
    for (Document doc : List.of(HOSTILE, EXAMPLE)) {
      assertThat(doc.select("script, link, iframe, object, embed, img")).isEmpty();
      assertThat(doc.select("[src]")).isEmpty();
      assertThat(doc.select("[href]")).isEmpty();
      assertThat(doc.select("style").html()).doesNotContain("url(", "@import");
      assertThat(doc.select("[style]").eachAttr("style")).allSatisfy(s -> assertThat(s).doesNotContain("url("));
      assertThat(doc.select("[onload], [onerror], [onclick]")).isEmpty();
    }
  }

  @Test
  void aReportWithoutAClusterOrVerdictsStillRenders() {
    ReportContext example = ReportFixtures.example();
    var onlyOne = dev.srt.operator.verdict.ComparisonReport.of(example.report().comparison,
        Map.of("sgl-cache-aware", example.report().arm("sgl-cache-aware").runs), "sgl-cache-aware", 0.01);
    Document doc = Jsoup.parse(HtmlReport.render(new ReportContext(onlyOne, example.comparison(), null, null, example.generatedAt())));
    assertThat(doc.select("table.verdicts")).isEmpty();
    assertThat(doc.select("#verdicts p.note").text()).startsWith("No verdicts");
    assertThat(facts(doc).get("cluster")).isEqualTo("h100-box (its spec was not read)");
    assertThat(facts(doc).get("topology")).isEqualTo("2 aggregated workers × 4 GPUs on 1 node");
    assertThat(doc.select("figure.chart[data-kind=strip]").first().select("circle.run")).hasSize(3);
  }

  private static Map<String, String> facts(Document doc) {
    List<Element> dts = doc.select("dl.facts dt");
    return dts.stream().collect(Collectors.toMap(Element::text, dt -> dt.nextElementSibling().text()));
  }
}
