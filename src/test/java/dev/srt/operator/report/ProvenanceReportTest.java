package dev.srt.operator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.results.FactsFile;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.FactKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * The provenance table of the HTML and Markdown reports: what each arm's runs were, one value per
 * arm where its runs agree, a held-constant fact that differs marked, routing facts marked as such,
 * engines' equal arguments folded, recorded facts left out, values shown as text.
 */
class ProvenanceReportTest {
  static final String TOKENIZER_A = "3f2a81c0".repeat(8);
  static final String TOKENIZER_B = "9c41d2e7".repeat(8);

  static RunFacts facts(int run, String tokenizer, String router, String memFraction) {
    RunFacts f = new RunFacts();
    f.facts = new ArrayList<>();
    add(f, "node 0 host", "gpu-0" + run);
    add(f, "node 0 GPU driver", "570.86.15");
    add(f, "node 0 CUDA version", run == 3 ? null : "12.8");
    add(f, "engine worker-0 server_args.tp_size", "4");
    add(f, "engine worker-0 server_args.page_size", "64");
    add(f, "engine worker-0 server_args.mem_fraction_static", memFraction);
    add(f, "engine worker-0 server_args.random_seed", String.valueOf(run * 7919));
    add(f, "model tokenizer.json sha256", tokenizer);
    add(f, "model served name", "Qwen/<b>Qwen3</b>");
    add(f, "router version", router);
    f.heldConstantDigest = FactKind.HELD_CONSTANT.digest(f.facts);
    return f;
  }

  private static void add(RunFacts f, String name, String value) {
    f.facts.add(new RunFact(name, FactKind.of(name).wire(), value, value == null ? "nvidia-smi names no CUDA version" : null));
  }

  static ReportContext context() {
    ReportContext example = ReportFixtures.example();
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    for (ComparisonReport.ArmReport arm : example.report().arms) {
      List<ArmRun> list = new ArrayList<>();
      for (ArmRun r : arm.runs) {
        boolean cacheAware = arm.name.equals("sgl-cache-aware");
        boolean dynamo = arm.name.equals("dynamo-kv");
        r.facts = facts(r.repetition, cacheAware || dynamo ? TOKENIZER_A : TOKENIZER_B, dynamo ? "dynamo 1.2.0" : "sgl-router 0.2.4",
            dynamo && r.repetition == 2 ? "0.85" : "0.88");
        list.add(r);
      }
      runs.put(arm.name, list);
    }
    ComparisonReport report = ComparisonReport.of(example.report().comparison, runs, example.report().baseline, 0.01);
    return new ReportContext(report, example.comparison(), example.cluster(), example.source(), example.generatedAt());
  }

  @Test
  void theHtmlTableMarksHeldConstantFactsThatDifferAndTheRoutersOwn() {
    Document page = Jsoup.parse(HtmlReport.render(context()));
    List<Element> rows = page.select("table.provenance tbody tr");
    Map<String, Element> byFact = new LinkedHashMap<>();
    rows.forEach(r -> byFact.put(r.selectFirst("td.fact").text(), r));

    assertThat(page.select("table.provenance thead th").eachText()).containsExactly("fact", "sgl-cache-aware", "sgl-round-robin", "dynamo-kv");
    Element tokenizer = byFact.get("model tokenizer.json sha256");
    assertThat(tokenizer.hasClass("differs")).isTrue();
    assertThat(tokenizer.select("td").eachText()).containsExactly("model tokenizer.json sha256", "3f2a81c0…", "9c41d2e7…", "3f2a81c0…");
    Element memFraction = byFact.get("engine worker-0 server_args.mem_fraction_static");
    assertThat(memFraction.hasClass("differs")).isTrue();
    assertThat(memFraction.select("td").get(3).text()).isEqualTo("0.88 (runs 1, 3) / 0.85 (run 2)");
    // arguments equal everywhere fold into one row per engine
    assertThat(byFact.get("engine worker-0 server_args").select("td").get(1).text()).isEqualTo("2 arguments, the same in every run");
    assertThat(byFact).doesNotContainKeys("engine worker-0 server_args.tp_size", "node 0 host", "engine worker-0 server_args.random_seed");
    Element router = byFact.get("router version");
    assertThat(router.hasClass("routing")).isTrue();
    assertThat(router.hasClass("differs")).as("routing facts may differ").isFalse();
    assertThat(byFact.get("node 0 GPU driver").hasClass("differs")).isFalse();
    assertThat(byFact.get("node 0 CUDA version").select("td").get(1).text())
        .isEqualTo("12.8 (runs 1-2) / unknown (run 3): nvidia-smi names no CUDA version");
    assertThat(byFact.get("node 0 CUDA version").hasClass("differs")).as("unknown is not different").isFalse();
    // values are text
    assertThat(byFact.get("model served name").select("td").get(1).text()).isEqualTo("Qwen/<b>Qwen3</b>");
    assertThat(page.select("table.provenance b")).isEmpty();
    // and the verdicts say why they are not comparable
    assertThat(page.select("#not-comparable li").eachText()).anySatisfy(t -> assertThat(t)
        .startsWith("sgl-round-robin vs sgl-cache-aware: held-constant facts differ: model tokenizer.json sha256 3f2a81c0… (runs 1-3 of "
            + "sgl-cache-aware) vs 9c41d2e7… (runs 1-3 of sgl-round-robin)"));
    assertThat(page.select("#not-comparable li").eachText()).anySatisfy(t -> assertThat(t)
        .contains("dynamo-kv vs sgl-cache-aware: held-constant facts differ: engine worker-0 server_args.mem_fraction_static 0.88"));
  }

  @Test
  void theMarkdownTableSaysTheSame() {
    String md = MarkdownReport.render(context());

    assertThat(md).contains("### Provenance (the runs' facts)");
    assertThat(md).contains("| **≠** `model tokenizer.json sha256` | **`3f2a81c0…`** | **`9c41d2e7…`** | **`3f2a81c0…`** |");
    assertThat(md).contains("| `router version` *routing* | `sgl-router 0.2.4` | `sgl-router 0.2.4` | `dynamo 1.2.0` |");
    assertThat(md).doesNotContain("node 0 host");
  }

  /** The example's runs, each as a run that wrote no facts.json. */
  private static Map<String, List<ArmRun>> withoutFacts(ReportContext example) {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    for (ComparisonReport.ArmReport arm : example.report().arms) {
      arm.runs.forEach(r -> r.facts = FactsFile.parse(null));
      runs.put(arm.name, arm.runs);
    }
    return runs;
  }

  /**
   * Runs without facts fail closed: the provenance says none has any, every verdict is
   * not-comparable naming the runs, and with requireFacts: false the verdicts stand with a
   * warning in both formats.
   */
  @Test
  void reportsOfRunsWithoutFactsSaySoAndTheirVerdictsAreNotComparableOrWarned() {
    ReportContext example = ReportFixtures.example();
    Map<String, List<ArmRun>> runs = withoutFacts(example);
    ComparisonReport refused = ComparisonReport.of(example.report().comparison, runs, example.report().baseline, 0.01);
    ReportContext r = new ReportContext(refused, example.comparison(), example.cluster(), example.source(), example.generatedAt());
    String firstRun = runs.get("sgl-cache-aware").get(0).runId;

    Document page = Jsoup.parse(HtmlReport.render(r));
    assertThat(page.select("table.provenance")).isEmpty();
    assertThat(page.select("#provenance p.note").text()).startsWith("No run has facts");
    assertThat(refused.verdicts).isNotEmpty().allSatisfy(v -> assertThat(v.verdict).isEqualTo("not-comparable"));
    assertThat(page.select("#not-comparable li").eachText()).anySatisfy(t -> assertThat(t).startsWith("sgl-round-robin vs "
        + "sgl-cache-aware: run " + firstRun + " of sgl-cache-aware has no facts: the run wrote no facts.json"));
    String md = MarkdownReport.render(r);
    assertThat(md).contains("### Provenance (the runs' facts)\n\nNo run has facts.");
    assertThat(md).contains("- sgl-round-robin vs sgl-cache-aware: run " + firstRun + " of sgl-cache-aware has no facts: the run wrote no facts.json");

    ComparisonReport warned = ComparisonReport.of(example.report().comparison, runs, example.report().baseline, 0.01, false);
    ReportContext w = new ReportContext(warned, example.comparison(), example.cluster(), example.source(), example.generatedAt());
    assertThat(warned.verdicts).noneSatisfy(v -> assertThat(String.valueOf(v.reason)).contains("has no facts"));
    assertThat(Jsoup.parse(HtmlReport.render(w)).select("#warnings li").eachText()).hasSize(2).allSatisfy(t -> assertThat(t)
        .contains(" against sgl-cache-aware (requireFacts: false): run " + firstRun + " of sgl-cache-aware has no facts: "));
    assertThat(MarkdownReport.render(w)).contains("Warnings:\n\n- sgl-round-robin against sgl-cache-aware (requireFacts: false): run "
        + firstRun + " of sgl-cache-aware has no facts: the run wrote no facts.json");
  }

  @Test
  void requireFactsFalseKeepsTheVerdictsAndTheReportWarns() {
    ReportContext ctx = context();
    ComparisonReport warned = ComparisonReport.of(ctx.report().comparison, Map.of("sgl-cache-aware", ctx.report().arm("sgl-cache-aware").runs,
        "sgl-round-robin", ctx.report().arm("sgl-round-robin").runs), "sgl-cache-aware", 0.01, false);
    ReportContext w = new ReportContext(warned, ctx.comparison(), ctx.cluster(), ctx.source(), ctx.generatedAt());

    assertThat(Jsoup.parse(HtmlReport.render(w)).select("#warnings li").eachText()).singleElement().asString()
        .startsWith("sgl-round-robin against sgl-cache-aware (requireFacts: false): held-constant facts differ: model tokenizer.json");
    assertThat(MarkdownReport.render(w)).contains("Warnings:\n\n- sgl-round-robin against sgl-cache-aware (requireFacts: false)");
  }
}
