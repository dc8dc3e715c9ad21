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
 * {@code examples/router-capacity.yaml}, smaller, on this machine as an emulated GPU host: two
 * sgl-router policies, each run twice up one concurrency ladder with the engines loaded once per
 * run, round robin's router made to fall over above 16 requests in flight. Every run of every arm
 * measures every level, the levels where round robin turned every request away included, and the
 * report has each arm's capacity and a verdict on it. What the verdicts say is asserted on
 * recorded runs ({@link RecordedRunsTest}), never here: on a busy machine the emulated latencies
 * follow its load.
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
  void everyRunClimbsTheWholeLadderAndTheReportGivesEachArmItsCapacity() throws Exception {
    // the example with two runs per arm, three of its levels and a quarter of its prompts, engines four times as fast
    String yaml = Files.readString(EXAMPLE);
    for (String[] change : new String[][] {{"repetitions: 3", "repetitions: 2"}, {"levels: [8, 16, 32, 48, 64, 96]", "levels: [8, 32, 96]"},
        {"gsp-num-groups: 32", "gsp-num-groups: 8"}, {"    kvEvents:", "    env: {SRT_EMULATOR_SPEED: \"4\"}\n    kvEvents:"},
        {"warmupRequests: 32", "warmupRequests: 4"},
        {"      args: {policy: round_robin}", "      args: {policy: round_robin}\n      env: {SRT_EMULATOR_SHED_ABOVE: \"16\"}"}}) {
      assertThat(yaml).contains(change[0]);
      yaml = yaml.replace(change[0], change[1]);
    }
    Path comparison = tmp.resolve("router-capacity.yaml");
    Files.writeString(comparison, yaml);

    String out = run("apply", "-f", comparison.toString(), "--cluster", cluster.toString());

    assertThat(runIds).as("two runs of each arm").hasSize(4);
    assertThat(out).contains("2/2 arms succeeded").contains("level 2/3 (c=32)");
    List<String> lines = out.lines().toList();
    // the answer comes last, whatever it is
    assertThat(lines.get(lines.size() - 1)).startsWith("capacity at the SLO: round-robin ").contains("cache-aware ");

    JsonNode report = Json.parse(run("report", "-f", comparison.toString(), "--cluster", cluster.toString(), "-o", "json"));
    assertThat(report.path("loadUnit").asText()).isEqualTo("concurrency");
    for (JsonNode arm : report.path("arms")) {
      String name = arm.path("name").asText();
      assertThat(arm.path("runs")).as(name).hasSize(2).allSatisfy(r -> {
        assertThat(r.path("phase").asText()).isEqualTo("Succeeded");
        assertThat(r.path("levels")).extracting(l -> l.path("load").asDouble()).as(name + " run levels").containsExactly(8.0, 32.0, 96.0);
        // round robin fell over above 16 in flight: from c=32 on it may complete none
        assertThat(r.path("levels")).filteredOn(l -> name.equals("cache-aware") || l.path("load").asDouble() < 16)
            .isNotEmpty().allSatisfy(l -> assertThat(l.path("results").path("completed").asInt()).as(name + " completed").isPositive());
      });
      assertThat(arm.path("levels")).as(name + " per-level summaries").hasSize(3);
      assertThat(arm.path("capacity").isObject()).as(name + " capacity").isTrue();
    }
    // A router that fell over: it admitted some of c=32 and none of c=96, and that is measured, not a failed run.
    JsonNode roundRobin = report.path("arms").get(0);
    assertThat(roundRobin.path("name").asText()).isEqualTo("round-robin");
    assertThat(roundRobin.path("runs")).allSatisfy(r -> {
      JsonNode top = r.path("levels").get(2).path("results");
      assertThat(top.path("completed").asInt()).as("c=96 completed").isZero();
      assertThat(top.path("goodput_ratio").asDouble(-1)).as("c=96: every request sent failed the SLO").isZero();
      assertThat(top.has("p99_ttft_ms")).as("no latency measured at c=96").isFalse();
      assertThat(top.path("shed_ratio").asDouble(-1)).as("c=96: the router turned every request away (503)").isEqualTo(1.0);
    });
    JsonNode collapsed = roundRobin.path("capacity");
    assertThat(collapsed.path("value").asDouble()).as("round robin's capacity lies below the load it fell over at")
        .isLessThan(32.0);
    JsonNode capacity = verdict(report, "capacity");
    assertThat(capacity.path("arm").asText()).isEqualTo("cache-aware");
    assertThat(capacity.path("baseline").asText()).isEqualTo("round-robin");
    assertThat(capacity.path("verdict").asText()).as(capacity.toString()).isNotBlank();
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
