package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.emulator.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/router-capacity.yaml} as the README runs it, on this machine as an emulated GPU
 * host: two sgl-router policies, each run three times up one concurrency ladder with the engines
 * loaded once per run. Every run of every arm measures every level; each arm's throughput
 * flattens at the top of the ladder while its tail TTFT keeps growing; cache-aware carries more
 * load within the SLO than round robin, and the verdict on capacity says so.
 */
class RouterCapacityIT {
  private static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();
  private static final Path EXAMPLE = Path.of("examples/router-capacity.yaml");
  private static final Pattern RUN_ID = Pattern.compile("submitted run (r[0-9a-f]{8}) ");

  @TempDir Path tmp;
  private Path cluster;
  private final List<String> runIds = new ArrayList<>();
  private final StringBuilder transcript = new StringBuilder();

  @RegisterExtension
  final TestWatcher printTranscriptOnFailure = new TestWatcher() {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      System.out.println(transcript);
    }
  };

  @BeforeEach
  void emulatedHost() throws Exception {
    assumeThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    System.setProperty(EmulatedHost.JAR_PROPERTY, JAR.toString());
    // the README's cluster, on a work directory of this test's own
    String yaml = Files.readString(Path.of("examples/local-emulated-cluster.yaml"));
    assertThat(yaml).contains("workDir: /tmp/srt-emulated-host");
    cluster = tmp.resolve("cluster.yaml");
    Files.writeString(cluster, yaml.replace("workDir: /tmp/srt-emulated-host", "workDir: " + tmp.resolve("host")));
  }

  @AfterEach
  void nothingLeftRunning() {
    System.clearProperty(EmulatedHost.JAR_PROPERTY);
    for (String id : runIds) {
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
          assertThat(ApplyCommandIT.Processes.withRunId(id)).as("processes of run " + id).isEmpty());
    }
  }

  @Test
  void cacheAwareCarriesMoreLoadWithinTheSloThanRoundRobin() throws Exception {
    String out = run("apply", "-f", EXAMPLE.toString(), "--cluster", cluster.toString());

    assertThat(runIds).as("three runs of each arm").hasSize(6);
    assertThat(out).contains("2/2 arms succeeded").contains("level 3/6 (c=32)");
    List<String> lines = out.lines().toList();
    // the answer comes last
    assertThat(lines.get(lines.size() - 1)).startsWith("capacity at the SLO: round-robin ").contains("cache-aware ")
        .contains("(better, +");

    JsonNode report = Json.parse(run("report", "-f", EXAMPLE.toString(), "--cluster", cluster.toString(), "-o", "json"));
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
    // the pages people read: the capacity first, and the latency distributions where every arm still meets the SLO
    Path page = tmp.resolve("capacity.html");
    String markdown = run("report", "-f", EXAMPLE.toString(), "--cluster", cluster.toString(), "-o", "markdown", "--html", page.toString());
    assertThat(markdown).containsSubsequence("### Capacity at the SLO", "### Verdicts against round-robin at each load",
        "### At each load", "<details><summary>Run values");
    var cdfs = org.jsoup.Jsoup.parse(Files.readString(page)).select("figure.chart[data-kind=cdf]");
    assertThat(cdfs.eachAttr("data-metric")).containsExactly("ttft_cdf", "itl_cdf");
    assertThat(cdfs.first().select("figcaption").text())
        .containsPattern("^TTFT distribution at c=\\d+ \\(the highest load every arm sustains within the SLO\\)");
    assertThat(cdfs.select("polyline.curve")).hasSize(4);

    JsonNode capacity = verdict(report, "capacity");
    assertThat(capacity.path("arm").asText()).isEqualTo("cache-aware");
    assertThat(capacity.path("baseline").asText()).isEqualTo("round-robin");
    assertThat(capacity.path("verdict").asText()).as(capacity.toString()).isEqualTo("better");
    assertThat(capacity.path("level").isNull() || capacity.path("level").isMissingNode()).isTrue();
    // at the lowest level neither arm is loaded: no verdict there says a router is worse
    assertThat(report.path("verdicts")).filteredOn(v -> v.path("level").asDouble() == 8.0
        && v.path("metric").asText().equals("request_throughput")).singleElement()
        .satisfies(v -> assertThat(v.path("verdict").asText()).isNotEqualTo("worse"));
  }

  private static double[] means(JsonNode arm, String metric) {
    double[] m = new double[arm.path("levels").size()];
    for (int i = 0; i < m.length; i++) {
      m[i] = arm.path("levels").get(i).path("summary").path("metrics").path(metric).path("mean").asDouble();
    }
    return m;
  }

  private static JsonNode verdict(JsonNode report, String metric) {
    for (JsonNode v : report.path("verdicts")) {
      if (v.path("metric").asText().equals(metric)) {
        return v;
      }
    }
    throw new AssertionError("no " + metric + " verdict in " + report.path("verdicts"));
  }

  /** Runs a command in-process; fails the test unless it exits 0. */
  private String run(String... argv) {
    PrintStream out = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      code = Main.run(argv);
    } finally {
      System.setOut(out);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    transcript.append("$ srt-operator ").append(String.join(" ", argv)).append('\n').append(printed);
    Matcher m = RUN_ID.matcher(printed);
    while (m.find()) {
      runIds.add(m.group(1));
    }
    assertThat(code).as(String.join(" ", argv) + " exit code").isZero();
    return printed;
  }
}
