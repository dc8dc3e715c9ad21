package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A direct GPU host is shared through its lease: two {@code apply} processes of differently named
 * comparisons on one emulated host run one after the other (the second says it is queued, and who
 * holds the host), and a run whose script is killed with SIGKILL lets the next one start.
 */
class HostLeaseIT {
  static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();

  @TempDir Path tmp;
  Path workDir;
  Path cluster;
  final List<Process> started = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    assumeThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    workDir = tmp.resolve("host");
    cluster = tmp.resolve("cluster.yaml");
    Files.writeString(cluster, """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata:
          name: h100-box
          annotations: {srt.dev/emulated-host: "true"}
        spec: {mode: direct, transport: local, workDir: %s, gpusPerNode: 8, pollInterval: 500ms}
        """.formatted(workDir));
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process p : started) {
      if (p.isAlive()) {
        p.destroy();
        p.waitFor(60, TimeUnit.SECONDS);
      }
    }
  }

  /** The example comparison renamed {@code name}. */
  Path comparison(String name) throws IOException {
    Path file = tmp.resolve(name + ".yaml");
    Files.writeString(file, Files.readString(Path.of("examples/router-comparison.yaml")).replace("name: qwen3-32b-routers", "name: " + name));
    return file;
  }

  Process apply(String name) throws IOException {
    Process p = new ProcessBuilder("java", "-jar", JAR.toString(), "apply", "-f", comparison(name).toString(), "--cluster", cluster.toString(),
        "--arm", "sgl-router")
        .redirectErrorStream(true).redirectOutput(tmp.resolve(name + ".out").toFile()).start();
    started.add(p);
    return p;
  }

  String output(String name) throws IOException {
    return Files.readString(tmp.resolve(name + ".out"));
  }

  /** The run directory of the comparison's only run, once it exists. */
  Optional<Path> runDir(String name) {
    Path arm = workDir.resolve("default").resolve(name).resolve("sgl-router");
    if (!Files.isDirectory(arm)) {
      return Optional.empty();
    }
    try (Stream<Path> runs = Files.list(arm)) {
      return runs.filter(Files::isDirectory).findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  List<JsonNode> events(String name) throws IOException {
    Path file = runDir(name).orElseThrow().resolve("events.jsonl");
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      out.add(Mappers.json().readTree(line));
    }
    return out;
  }

  boolean hasEvent(String name, String event) {
    try {
      return runDir(name).isPresent() && Files.exists(runDir(name).get().resolve("events.jsonl"))
          && events(name).stream().anyMatch(e -> event.equals(e.path("event").asText()));
    } catch (IOException e) {
      return false;
    }
  }

  Instant first(String name, String event) throws IOException {
    return events(name).stream().filter(e -> event.equals(e.path("event").asText())).map(e -> Instant.parse(e.path("ts").asText()))
        .findFirst().orElseThrow(() -> new AssertionError(name + " has no " + event + " event"));
  }

  /** What a failed assertion shows: the apply output, the run's events and the ends of its logs. */
  String diagnostics(String name) {
    StringBuilder out = new StringBuilder("---- " + name + "\n");
    try {
      out.append(output(name));
      Path run = runDir(name).orElseThrow();
      out.append(Files.readString(run.resolve("events.jsonl")));
      try (Stream<Path> logs = Files.list(run.resolve("logs"))) {
        for (Path log : logs.sorted().toList()) {
          List<String> lines = Files.readAllLines(log);
          out.append("-- ").append(log.getFileName()).append('\n')
              .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()))).append('\n');
        }
      }
    } catch (IOException | RuntimeException e) {
      out.append("(").append(e).append(")\n");
    }
    return out.toString();
  }

  @Test
  void twoComparisonsOnOneHostRunOneAfterTheOther() throws Exception {
    Process a = apply("cmp-a");
    await().atMost(Duration.ofSeconds(60)).until(() -> hasEvent("cmp-a", "lease-acquired"));
    Process b = apply("cmp-b");

    assertThat(a.waitFor(3, TimeUnit.MINUTES)).isTrue();
    assertThat(b.waitFor(3, TimeUnit.MINUTES)).isTrue();
    assertThat(a.exitValue()).as(output("cmp-a")).isZero();
    assertThat(b.exitValue()).as(output("cmp-b")).isZero();

    assertThat(events("cmp-b")).anySatisfy(e -> {
      assertThat(e.path("event").asText()).isEqualTo("queued");
      assertThat(e.path("holder").asText()).startsWith("default/cmp-a/sgl-router/r");
    });
    assertThat(output("cmp-b")).containsPattern("Queued +queued behind default/cmp-a/sgl-router/r[0-9a-f]{8}");
    // The host intervals, first process started to finished, never overlap.
    assertThat(first("cmp-b", "process-started")).isAfterOrEqualTo(first("cmp-a", "finished"));
  }

  @Test
  void aKilledScriptLetsTheNextQueuedRunStart() throws Exception {
    Process a = apply("cmp-a");
    await().atMost(Duration.ofSeconds(90)).until(() -> hasEvent("cmp-a", "process-started"));
    Process b = apply("cmp-b");
    await().atMost(Duration.ofSeconds(60)).until(() -> hasEvent("cmp-b", "queued"));

    // SIGKILL to the script itself: no exit handler runs, and its servers stay behind.
    long wrapper = Long.parseLong(Files.readString(runDir("cmp-a").orElseThrow().resolve("pid")).strip());
    long script = ProcessHandle.of(wrapper).orElseThrow().children().findFirst().orElseThrow().pid();
    new ProcessBuilder("kill", "-9", Long.toString(script)).inheritIO().start().waitFor();

    assertThat(a.waitFor(3, TimeUnit.MINUTES)).isTrue();
    assertThat(a.exitValue()).isNotZero();
    assertThat(output("cmp-a")).contains("leftover processes were stopped");
    assertThat(b.waitFor(3, TimeUnit.MINUTES)).isTrue();
    assertThat(b.exitValue()).as(() -> diagnostics("cmp-b") + diagnostics("cmp-a")).isZero();
    assertThat(first("cmp-b", "lease-acquired")).isAfter(first("cmp-a", "process-started"));
  }
}
