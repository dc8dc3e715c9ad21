package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.emulator.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The facts check fails closed, on forged copies of the recorded corpus's README comparison
 * ({@link RecordedRuns}): a run whose facts.json is missing, malformed or a FIFO, or an arm whose
 * runs had different routers, makes the verdicts it touches not-comparable, naming the run and
 * what was wrong; with {@code requireFacts: false} the verdicts stand and every format warns.
 * Unforged, the corpus's verdicts all stand ({@link RecordedRunsTest}).
 */
class FailClosedFactsTest {
  /** The README's arms: sgl-router is the baseline; one run of each arm, by id. */
  static final String BASELINE_RUN = "r453f4087";
  static final String DYNAMO_KV_RUN = "r6f7fcf49";
  static final String[] DYNAMO_KV_RUNS = {"r6f7fcf49", "r741995e5", "r8eff531c"};

  @TempDir Path tmp;

  private RecordedRuns corpus() {
    return RecordedRuns.of("router-comparison.yaml", tmp);
  }

  private static Path facts(RecordedRuns runs, String arm, String runId) {
    return runs.workDir().resolve("default/qwen3-32b-routers/" + arm + "/" + runId + "/facts.json");
  }

  private static ValidateCommandTest.Run run(String... argv) {
    ValidateCommandTest.Run r = ValidateCommandTest.run(argv);
    assertThat(r.code()).as(r.toString()).isZero();
    return r;
  }

  private static JsonNode report(RecordedRuns runs, Path comparison) {
    return Json.parse(run("report", "-f", comparison.toString(), "--cluster", runs.cluster().toString(), "-o", "json").out());
  }

  /** The arm's verdict on {@code metric} over the whole run. */
  private static JsonNode verdict(JsonNode report, String arm, String metric) {
    for (JsonNode v : report.path("verdicts")) {
      if (v.path("arm").asText().equals(arm) && v.path("metric").asText().equals(metric)) {
        return v;
      }
    }
    throw new AssertionError("no " + metric + " verdict of " + arm + " in " + report.path("verdicts"));
  }

  /** The corpus comparison with {@code spec.execution.requireFacts: false}. */
  private Path requireFactsFalse() throws Exception {
    String yaml = Files.readString(RecordedRuns.CORPUS.resolve("router-comparison.yaml"));
    String execution = "execution: {order: interleaved, repetitions: 3}";
    assertThat(yaml).contains(execution);
    Path file = tmp.resolve("require-facts-false.yaml");
    Files.writeString(file, yaml.replace(execution, "execution: {order: interleaved, repetitions: 3, requireFacts: false}"));
    return file;
  }

  @Test
  void aRunWithoutFactsJsonMakesItsArmNotComparableNamingTheRun() throws Exception {
    RecordedRuns runs = corpus();
    Files.delete(facts(runs, "dynamo-kv", DYNAMO_KV_RUN));

    JsonNode report = report(runs, runs.comparison());

    JsonNode throughput = verdict(report, "dynamo-kv", "request_throughput");
    assertThat(throughput.path("verdict").asText()).isEqualTo("not-comparable");
    assertThat(throughput.path("reason").asText()).startsWith("run " + DYNAMO_KV_RUN + " of dynamo-kv has no facts: the run wrote no facts.json");
    assertThat(report.path("verdicts")).filteredOn(v -> v.path("arm").asText().equals("dynamo-kv"))
        .allSatisfy(v -> assertThat(v.path("verdict").asText()).isEqualTo("not-comparable"));
    // the other arm's runs and the baseline's have their facts: its verdicts stand
    assertThat(report.path("verdicts")).filteredOn(v -> v.path("arm").asText().equals("dynamo-kv-policy"))
        .noneSatisfy(v -> assertThat(v.path("verdict").asText()).isEqualTo("not-comparable"));
    assertThat(report.path("factChecks")).filteredOn(c -> c.path("arm").asText().equals("dynamo-kv")).singleElement()
        .satisfies(c -> assertThat(c.path("refused").asBoolean()).isTrue());
    assertThat(report.path("warnings")).isEmpty();
  }

  /** Before, an arm whose every facts.json was unreadable kept its "worse" with no word said. */
  @Test
  void anArmWhoseFactsAreAllMalformedLosesItsWorseVerdict() throws Exception {
    RecordedRuns runs = corpus();
    for (String id : DYNAMO_KV_RUNS) {
      Files.writeString(facts(runs, "dynamo-kv", id), "{\"facts\": ");
    }

    JsonNode throughput = verdict(report(runs, runs.comparison()), "dynamo-kv", "request_throughput");

    assertThat(throughput.path("verdict").asText()).isEqualTo("not-comparable");
    assertThat(throughput.path("reason").asText()).startsWith("run ").contains(" of dynamo-kv has no facts: facts.json is malformed: not JSON");
  }

  /** A baseline run without facts leaves nothing to compare with: every verdict against it is refused. */
  @Test
  void aBaselineRunWithAMalformedFactsJsonRefusesEveryVerdict() throws Exception {
    RecordedRuns runs = corpus();
    Files.writeString(facts(runs, "sgl-router", BASELINE_RUN), "[]");

    JsonNode report = report(runs, runs.comparison());

    assertThat(report.path("verdicts")).isNotEmpty().allSatisfy(v -> {
      assertThat(v.path("verdict").asText()).isEqualTo("not-comparable");
      assertThat(v.path("reason").asText()).contains("run " + BASELINE_RUN + " of sgl-router has no facts: facts.json is malformed: "
          + "not a JSON object");
    });
  }

  /** A FIFO is named as one, and never opened: the report does not block on it. */
  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aFactsJsonThatIsAFifoIsNamedAsOneAndNeverBlocksTheReader() throws Exception {
    RecordedRuns runs = corpus();
    Path fifo = facts(runs, "dynamo-kv", DYNAMO_KV_RUN);
    Files.delete(fifo);
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor()).isZero();

    JsonNode throughput = verdict(report(runs, runs.comparison()), "dynamo-kv", "request_throughput");

    assertThat(throughput.path("verdict").asText()).isEqualTo("not-comparable");
    assertThat(throughput.path("reason").asText()).startsWith("run " + DYNAMO_KV_RUN + " of dynamo-kv has no facts: facts.json is a FIFO: skipped");
  }

  /** Two routers averaged as one arm: a routing fact that differs between its runs refuses its verdicts. */
  @Test
  void aRoutingFactThatDiffersWithinAnArmRefusesItsVerdicts() throws Exception {
    RecordedRuns runs = corpus();
    setFact(facts(runs, "dynamo-kv", DYNAMO_KV_RUN), "router package ai-dynamo", "1.1.0");

    JsonNode report = report(runs, runs.comparison());

    JsonNode throughput = verdict(report, "dynamo-kv", "request_throughput");
    assertThat(throughput.path("verdict").asText()).isEqualTo("not-comparable");
    assertThat(throughput.path("reason").asText()).startsWith("routing facts differ between the runs of one arm (two routers averaged as one): "
        + "router package ai-dynamo ").contains("1.2.0 (runs ").contains("1.1.0 (run ").contains(" of dynamo-kv)");
    assertThat(report.path("verdicts")).filteredOn(v -> v.path("arm").asText().equals("dynamo-kv-policy"))
        .noneSatisfy(v -> assertThat(v.path("verdict").asText()).isEqualTo("not-comparable"));
  }

  /** The baseline's router binary differs between its runs: no verdict against it stands. */
  @Test
  void aBaselineWhoseRouterBinaryDiffersBetweenRunsRefusesEveryVerdict() throws Exception {
    RecordedRuns runs = corpus();
    setFact(facts(runs, "sgl-router", BASELINE_RUN), "router binary sha256", "0badc0de".repeat(8));

    JsonNode report = report(runs, runs.comparison());

    assertThat(report.path("verdicts")).isNotEmpty().allSatisfy(v -> assertThat(v.path("reason").asText())
        .contains("router binary sha256 ").contains("0badc0de… (run ").contains(" of sgl-router)"));
  }

  /** requireFacts: false keeps the verdicts, and the text, JSON, Markdown, HTML and status all say what the facts do not vouch for. */
  @Test
  void withRequireFactsFalseTheVerdictsStandAndEveryFormatWarns() throws Exception {
    RecordedRuns runs = corpus();
    Path comparison = requireFactsFalse();
    Files.delete(facts(runs, "dynamo-kv", DYNAMO_KV_RUN));
    String warning = "dynamo-kv against sgl-router (requireFacts: false): run " + DYNAMO_KV_RUN
        + " of dynamo-kv has no facts: the run wrote no facts.json";
    String cluster = runs.cluster().toString();

    JsonNode report = report(runs, comparison);
    assertThat(verdict(report, "dynamo-kv", "request_throughput").path("verdict").asText()).isEqualTo("worse");
    assertThat(report.path("warnings")).singleElement().satisfies(w -> assertThat(w.asText()).startsWith(warning));

    assertThat(run("report", "-f", comparison.toString(), "--cluster", cluster).out()).contains("  warning: " + warning);
    Path page = tmp.resolve("report.html");
    String markdown = run("report", "-f", comparison.toString(), "--cluster", cluster, "-o", "markdown", "--html", page.toString()).out();
    assertThat(markdown).contains("Warnings:\n\n- " + warning);
    assertThat(org.jsoup.Jsoup.parse(Files.readString(page)).select("#warnings li").eachText()).singleElement().asString()
        .startsWith(warning);
    assertThat(run("status", "-f", comparison.toString(), "--cluster", cluster).out()).contains("facts: " + warning);
    assertThat(Json.parse(run("status", "-f", comparison.toString(), "--cluster", cluster, "-o", "json").out()).path("facts"))
        .singleElement().satisfies(f -> assertThat(f.asText()).startsWith(warning));
  }

  @Test
  void statusSaysWhichVerdictsTheFactsRefuse() throws Exception {
    RecordedRuns runs = corpus();
    Files.writeString(facts(runs, "dynamo-kv", DYNAMO_KV_RUN), "not json");

    String out = run("status", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString()).out();

    assertThat(out).contains("facts: dynamo-kv against sgl-router: verdicts not comparable: run " + DYNAMO_KV_RUN
        + " of dynamo-kv has no facts: facts.json is malformed: not JSON");
    assertThat(out).doesNotContain("facts: dynamo-kv-policy");
  }

  @Test
  void diffOfRunsExitsNonZeroWhenASideHasNoFacts() throws Exception {
    RecordedRuns runs = corpus();
    String[] diff = {"diff", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString(), "--runs",
        "sgl-router/" + BASELINE_RUN, "dynamo-kv/" + DYNAMO_KV_RUN};
    assertThat(ValidateCommandTest.run(diff).code()).as("the corpus's runs agree outside routing").isZero();

    Files.delete(facts(runs, "dynamo-kv", DYNAMO_KV_RUN));
    ValidateCommandTest.Run r = ValidateCommandTest.run(diff);

    assertThat(r.code()).as(r.toString()).isEqualTo(RunFactsDiff.DIFFERENT);
    assertThat(r.out()).contains("run B (dynamo-kv/" + DYNAMO_KV_RUN + ") has no readable facts: the runs cannot be shown to be comparable");
  }

  /** Sets the value of fact {@code name} in a facts.json. */
  private static void setFact(Path file, String name, String value) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    JsonNode root = mapper.readTree(file.toFile());
    boolean found = false;
    for (JsonNode f : root.path("facts")) {
      if (f.path("name").asText().equals(name)) {
        ((ObjectNode) f).put("value", value);
        found = true;
      }
    }
    assertThat(found).as(name + " in " + file).isTrue();
    mapper.writeValue(file.toFile(), root);
  }
}
