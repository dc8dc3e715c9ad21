package dev.srt.operator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.verdict.Cells;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownReportTest {
  static final String EXAMPLE = MarkdownReport.render(ReportFixtures.example());
  static final String HOSTILE = MarkdownReport.render(ReportFixtures.hostile());

  @Test
  void printsTheVerdictsSummaryHeldConstantAndRunsAsTables() {
    assertThat(EXAMPLE).startsWith("## Router comparison qwen3-32b-routers\n\n3 arms, 9 runs, baseline **sgl-cache-aware**");
    assertThat(EXAMPLE).contains("""
        ### Verdicts against sgl-cache-aware

        | arm | metric | difference | 95% interval | p (Holm) | detectable | verdict |
        | --- | --- | ---: | ---: | ---: | ---: | --- |
        | sgl-round-robin | request throughput (req/s) ↑ | -13.1% | [-18.6%, -7.5%] | 0.0039 (Holm 0.0209) | 11.8% at α 0.0100 | ▼ **worse** |
        """);
    // Welch's test alone would call it better (p < 0.05, its interval's low end is above 0); over the family of 8
    // verdicts it is not, and the row says so; the detectable effect is at the level Holm decided it at, 0.05 / 4
    assertThat(EXAMPLE).contains("| dynamo-kv | engine cache hit rate (%) ↑ | +3.4% | [+0.0%, +6.8%] | 0.0495 (Holm 0.1979) | "
        + "7.1% at α 0.0125 | ~ **inconclusive** (not significant after Holm: p 0.0495, Holm 0.1979) |\n");
    assertThat(EXAMPLE).contains("| dynamo-kv | p99 ITL (ms) ↓ | +0.3% | [-1.1%, +1.8%] | 0.5665 (Holm 1.0000) | 2.8% at α 0.0125 "
        + "| = **equivalent** |\n");
    assertThat(EXAMPLE).contains(MarkdownReport.VERDICT_NOTE);
    assertThat(EXAMPLE).contains("""
        ### Per-arm summary (mean ± half 95% interval)

        |  | sgl-cache-aware (baseline) | sgl-round-robin | dynamo-kv |
        | --- | ---: | ---: | ---: |
        | succeeded runs (n) | 3 | 3 | 3 |
        """);
    assertThat(EXAMPLE).contains("| engine cache hit rate (%) ↑ | 63.1 ± 0.9% | 39.7 ± 6.4% | 65.3 ± 2.4% |\n");
    assertThat(EXAMPLE).contains("| model | `/models/Qwen3-32B-FP8 (served as Qwen/Qwen3-32B-FP8)` |\n");
    assertThat(EXAMPLE).contains("| GPU | `h100, 8 per node` |\n");
    var first = ReportFixtures.example().report().arm("sgl-cache-aware").runs.get(0);
    assertThat(EXAMPLE).contains("| sgl-cache-aware | 1 | `" + first.runId + "` | Succeeded | " + first.startedAt + " | `" + first.runDir + "` |  |\n");
  }

  @Test
  void notComparableVerdictsSayWhy() {
    assertThat(HOSTILE).contains("| flaky | request throughput (req/s) ↑ | +13.7% | - | - | - | ? **not-comparable** |\n");
    assertThat(HOSTILE).contains("Not comparable:\n\n- flaky vs base: flaky failed 6.3% of its requests (more than maxFailedRatio 1.0%)\n");
  }

  @Test
  void pipesAndMarkupInValuesCannotBreakATableOrBecomeHtml() {
    assertThat(HOSTILE).contains("router exited: &lt;img src=x onerror=alert(4)&gt; \\| see router.log |\n");
    assertThat(HOSTILE).contains("## Router comparison cmp-&lt;script&gt;alert(1)&lt;/script&gt;\n");
    // Inside a code span markup is shown as written; outside one, it must be escaped.
    assertThat(HOSTILE).contains("| model | `/models/<script>alert('model')</script> (served as script>)` |");
    // the one markup written on purpose folds the run values away; nothing else is markup
    assertThat(withoutCodeSpans(HOSTILE).replaceAll("</?(details|summary)>", "")).doesNotContain("<");
    for (List<String> table : tables(HOSTILE)) {
      int columns = cells(table.get(0));
      assertThat(table).allSatisfy(row -> assertThat(cells(row)).as(row).isEqualTo(columns));
    }
  }

  private static String withoutCodeSpans(String markdown) {
    return markdown.replaceAll("(`+)(?:(?!\\1).)*?\\1", "");
  }

  /** The cells of a row: its unescaped pipes, less one. */
  private static int cells(String row) {
    return row.split("(?<!\\\\)\\|", -1).length - 2;
  }

  private static List<List<String>> tables(String markdown) {
    List<List<String>> tables = new ArrayList<>();
    List<String> current = null;
    for (String line : markdown.split("\n")) {
      if (line.startsWith("|")) {
        if (current == null) {
          current = new ArrayList<>();
          tables.add(current);
        }
        current.add(line);
      } else {
        current = null;
      }
    }
    // with the provenance table of the runs' facts (the fixture's runs have facts: the facts check fails closed without)
    assertThat(tables).hasSize(6);
    return tables;
  }

  @Test
  void aLadderLeadsWithCapacityThenEachLoadThenEveryRunsValues() {
    var rc = LoadChartTest.comparison();
    var report = LoadChartTest.report(rc);
    String md = MarkdownReport.render(new ReportContext(report, rc, ReportFixtures.cluster(), "test", ReportFixtures.GENERATED, List.of(),
        null, "srt-operator 9.9.9 (commit abc1234)"));
    assertThat(md).contains("generated 2026-11-20T14:05:00Z by srt-operator 9.9.9 (commit abc1234).");
    assertThat(md).containsSubsequence("### Capacity at the SLO", "### Verdicts against round-robin at each load", "### At each load",
        "### Per-arm summary (mean ± half 95% interval), over every level", "### Runs", "<details><summary>Run values");
    String capacityRow = md.lines().filter(l -> l.startsWith("| cache-aware | ")).findFirst().orElseThrow();
    assertThat(capacityRow).contains(MarkdownReport.cell(Cells.capacity(report.arm("cache-aware").capacity))).contains("**better**");
    assertThat(md.lines().filter(l -> l.startsWith("| round-robin | ")).findFirst().orElseThrow()).endsWith("| baseline |");
    assertThat(md).contains("Capacity: the load at which fewer than 90% of requests first meet the SLO, climbing the ladder");
    String perLevel = md.substring(md.indexOf("### Verdicts against"), md.indexOf("### At each load"));
    assertThat(perLevel.lines().filter(l -> l.startsWith("| "))).noneMatch(l -> l.contains("capacity"));
    assertThat(perLevel).contains("| cache-aware | c=64 | request throughput (req/s) ↑ |");
    // request throughput at c=8: round robin 31, 32, 33; cache-aware 36, 37, 38
    assertThat(md).contains("**request throughput (req/s) ↑**").containsPattern("\\| c=8 \\| 32\\.00 ± [0-9.]+ \\| 37\\.00 ± [0-9.]+ \\|");
    // the third cache-aware run at c=64: 100 requests completed, none failed, 62 + 3 req/s, 58% within the SLO, p99 TTFT 400 ms
    assertThat(md).contains("| arm | rep. | run id | load | completed | failed | request throughput (req/s) ↑ |")
        .contains("| cache-aware | 3 | `r00000003` | c=64 | 100 | 0 | 65.00 req/s | 58.0% | 400.0 ms |");
  }

  /** The page as GitHub shows it: CommonMark with GitHub's tables. */
  private static org.jsoup.nodes.Document rendered(String markdown) {
    var extensions = List.of(org.commonmark.ext.gfm.tables.TablesExtension.create());
    var parser = org.commonmark.parser.Parser.builder().extensions(extensions).build();
    var renderer = org.commonmark.renderer.html.HtmlRenderer.builder().extensions(extensions).build();
    return org.jsoup.Jsoup.parse(renderer.render(parser.parse(markdown)));
  }

  @Test
  void everyTableParsesAsGitHubRendersItAndNoValueBecomesMarkup() {
    var rc = LoadChartTest.comparison();
    String ladder = MarkdownReport.render(new ReportContext(LoadChartTest.report(rc), rc, ReportFixtures.cluster(), "test",
        ReportFixtures.GENERATED));
    for (String md : List.of(EXAMPLE, HOSTILE, ladder)) {
      var page = rendered(md);
      long separators = md.lines().filter(l -> l.matches("\\|( ---:? \\|)+")).count();
      assertThat(page.select("table")).as("one table per header separator").hasSize((int) separators);
      for (var table : page.select("table")) {
        int columns = table.select("thead th").size();
        assertThat(table.select("tbody tr")).allSatisfy(tr -> assertThat(tr.select("td")).as(tr.text()).hasSize(columns));
      }
      assertThat(page.select("script, img, b, iframe")).as("markup from values").isEmpty();
    }
    var hostile = rendered(HOSTILE);
    assertThat(hostile.select("h2").text()).isEqualTo("Router comparison cmp-<script>alert(1)</script>");
    assertThat(hostile.select("td").eachText()).anySatisfy(t -> assertThat(t).contains("<img src=x onerror=alert(4)> | see router.log"));
    var sections = rendered(ladder).select("h3").eachText();
    assertThat(sections.get(0)).isEqualTo("Capacity at the SLO");
    assertThat(rendered(ladder).select("details summary").text()).startsWith("Run values");
  }
}
