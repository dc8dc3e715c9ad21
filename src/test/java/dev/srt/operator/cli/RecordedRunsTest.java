package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.emulator.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The statistics on runs that really happened, read back from the recorded corpus
 * ({@link RecordedRuns}): what the verdicts say is asserted here, on fixed runs, never from the
 * wall-clock luck of runs emulated during the test. It also keeps the promise that reports read
 * the run directories an earlier release wrote (format 1).
 */
class RecordedRunsTest {
  @TempDir Path tmp;

  private JsonNode report(RecordedRuns runs) {
    return Json.parse(run("report", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString(), "-o", "json"));
  }

  private static String run(String... argv) {
    ValidateCommandTest.Run r = ValidateCommandTest.run(argv);
    assertThat(r.code()).as(r.toString()).isZero();
    return r.out();
  }

  /**
   * examples/router-capacity.yaml's six runs: each arm's throughput flattens at the top of the
   * ladder while its tail TTFT keeps growing, and cache-aware carries more load within the SLO
   * than round robin, with a capacity verdict that says so.
   */
  @Test
  void theCapacityLadderDecidesThatCacheAwareCarriesMoreLoadWithinTheSlo() throws Exception {
    RecordedRuns runs = RecordedRuns.of("router-capacity.yaml", tmp);
    JsonNode report = report(runs);

    assertThat(report.path("loadUnit").asText()).isEqualTo("concurrency");
    List<Double> ladder = List.of(8.0, 16.0, 32.0, 48.0, 64.0, 96.0);
    for (JsonNode arm : report.path("arms")) {
      String name = arm.path("name").asText();
      assertThat(arm.path("runs")).as(name).hasSize(3).allSatisfy(r -> {
        assertThat(r.path("phase").asText()).isEqualTo("Succeeded");
        assertThat(r.path("levels")).extracting(l -> l.path("load").asDouble()).as(name + " run levels").isEqualTo(ladder);
        assertThat(r.path("levels")).allSatisfy(l -> assertThat(l.path("results").path("completed").asInt()).isPositive());
      });
      double[] rps = means(arm, "request_throughput");
      double[] p99Ttft = means(arm, "p99_ttft_ms");
      // throughput climbs at first, then flattens: the engines are saturated
      double firstStep = rps[1] / rps[0] - 1;
      assertThat(firstStep).as(name + " req/s from c=8 to c=16").isGreaterThan(0.05);
      assertThat(rps[5] / rps[4] - 1).as(name + " req/s from c=64 to c=96, against %.3f from c=8 to c=16", firstStep)
          .isLessThan(firstStep / 2);
      // past saturation the queue grows, and with it the tail of time to first token
      assertThat(p99Ttft[5]).as(name + " p99 TTFT at c=96 against c=8").isGreaterThan(2 * p99Ttft[0]);
      assertThat(arm.path("capacity").path("value").asDouble()).as(name + " capacity").isBetween(8.0, 96.0);
    }
    JsonNode capacity = verdict(report, "cache-aware", "capacity");
    assertThat(capacity.path("baseline").asText()).isEqualTo("round-robin");
    assertThat(capacity.path("verdict").asText()).as(capacity.toString()).isEqualTo("better");
    assertThat(capacity.path("level").isNull() || capacity.path("level").isMissingNode()).isTrue();
    // at the lowest level neither arm is loaded: no verdict there says a router is worse
    assertThat(report.path("verdicts")).filteredOn(v -> v.path("level").asDouble() == 8.0
        && v.path("metric").asText().equals("request_throughput")).singleElement()
        .satisfies(v -> assertThat(v.path("verdict").asText()).isNotEqualTo("worse"));

    // the text ends with the answer; the pages people read lead with the capacity, and draw the
    // latency distributions where every arm still meets the SLO
    List<String> text = run("report", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString()).lines().toList();
    assertThat(text.get(text.size() - 1)).startsWith("capacity at the SLO: round-robin ").contains("cache-aware ").contains("(better, +");
    Path page = tmp.resolve("capacity.html");
    String markdown = run("report", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString(), "-o", "markdown",
        "--html", page.toString());
    assertThat(markdown).containsSubsequence("### Capacity at the SLO", "### Verdicts against round-robin at each load",
        "### At each load", "<details><summary>Run values");
    var cdfs = org.jsoup.Jsoup.parse(Files.readString(page)).select("figure.chart[data-kind=cdf]");
    assertThat(cdfs.eachAttr("data-metric")).containsExactly("ttft_cdf", "itl_cdf");
    assertThat(cdfs.first().select("figcaption").text())
        .containsPattern("^TTFT distribution at c=\\d+ \\(the highest load every arm sustains within the SLO\\)");
    assertThat(cdfs.select("polyline.curve")).hasSize(4);
  }

  /** examples/sgl-router-policies.yaml's six runs: round robin serves fewer requests and hits the cache less. */
  @Test
  void thePolicyComparisonFindsRoundRobinWorse() {
    JsonNode report = report(RecordedRuns.of("sgl-router-policies.yaml", tmp));

    assertThat(report.path("baseline").asText()).isEqualTo("cache-aware");
    assertThat(verdict(report, "round-robin", "request_throughput").path("verdict").asText()).isEqualTo("worse");
    assertThat(verdict(report, "round-robin", "engine_cache_hit_rate").path("verdict").asText()).isEqualTo("worse");
    assertThat(report.path("arms")).allSatisfy(a -> assertThat(a.path("runs")).hasSize(3));
  }

  /**
   * The README's three arms, three runs each: their facts agree outside routing, so every arm
   * gets verdicts (none not-comparable), and Dynamo's KV router without the policy catalog
   * serves fewer requests than sgl-router.
   */
  @Test
  void theReadmeArmsWithThreeRunsEachGetVerdicts() {
    JsonNode report = report(RecordedRuns.of("router-comparison.yaml", tmp));

    assertThat(report.path("baseline").asText()).isEqualTo("sgl-router");
    assertThat(report.path("verdicts")).hasSize(8).noneSatisfy(v -> assertThat(v.path("verdict").asText()).isEqualTo("not-comparable"));
    assertThat(verdict(report, "dynamo-kv", "request_throughput").path("verdict").asText()).isEqualTo("worse");
    assertThat(verdict(report, "dynamo-kv", "engine_cache_hit_rate").path("verdict").asText()).isEqualTo("worse");
  }

  /**
   * The README's policy and capacity examples show what {@code report} prints for these recorded
   * runs (their run directories under the example cluster's work directory): the numbers on the
   * page are those of real runs, with today's statistics. A verdict line the README cuts with
   * {@code · ...} is the start of the printed one.
   */
  @Test
  void theReadmeExamplesAreTheReportsOfTheRecordedRuns() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    for (String example : List.of("sgl-router-policies.yaml", "router-capacity.yaml")) {
      RecordedRuns runs = RecordedRuns.of(example, tmp.resolve(example));
      List<String> printed = run("report", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString())
          .replace(runs.workDir().toString(), "/tmp/srt-emulated-host").lines().toList();
      List<String> shown = readmeOutput(readme, "apply -f examples/" + example);
      assertThat(shown).as(example).hasSizeGreaterThan(4);
      List<String> matched = shown.stream().map(line -> !line.endsWith(" · ...") ? line
          : printed.stream().filter(p -> p.startsWith(line.substring(0, line.length() - "...".length()))).findFirst().orElse(line)).toList();
      assertThat(printed).as("README.md's output of %s, against the report of the recorded runs", example).containsSubsequence(matched);
    }
  }

  /** The README's example output after {@code command}, from its first table on, without blank lines. */
  private static List<String> readmeOutput(String readme, String command) {
    int start = readme.indexOf("\n  ARM", readme.indexOf(command)) + 1;
    return readme.substring(start, readme.indexOf("```", start)).lines().filter(l -> !l.isBlank()).toList();
  }

  private static double[] means(JsonNode arm, String metric) {
    double[] m = new double[arm.path("levels").size()];
    for (int i = 0; i < m.length; i++) {
      m[i] = arm.path("levels").get(i).path("summary").path("metrics").path(metric).path("mean").asDouble();
    }
    return m;
  }

  /** The arm's verdict on {@code metric} over the whole run (not one level's). */
  private static JsonNode verdict(JsonNode report, String arm, String metric) {
    for (JsonNode v : report.path("verdicts")) {
      if (v.path("arm").asText().equals(arm) && v.path("metric").asText().equals(metric)
          && (v.path("level").isMissingNode() || v.path("level").isNull())) {
        return v;
      }
    }
    throw new AssertionError("no " + metric + " verdict of " + arm + " in " + report.path("verdicts"));
  }
}
