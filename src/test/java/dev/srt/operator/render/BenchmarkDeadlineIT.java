package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.base.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41, finding 3, "runs without an end are valid": the library's {@code srt_run_benchmark}
 * stops a benchmark still running at its deadline (its whole process group, also what ignores
 * TERM) and fails the run with {@code BenchmarkTimedOut}, naming the level and the deadline; and
 * no benchmark outlives the run's budget ({@code srt_benchmark_budget}, spec.execution.maxDuration).
 * The library run with a stand-in benchmark that never ends.
 */
class BenchmarkDeadlineIT {
  /** A benchmark that ignores TERM, with a child that ignores it too; it writes its child's pid first. */
  private static final String ENDLESS = "bash -c 'trap \"\" TERM; sleep 1000 & echo $! >bench-child; echo sending; wait'";

  @TempDir Path runDir;

  private List<JsonNode> run(String body) throws Exception {
    String script = "set -Eeuo pipefail\nset -m\nSRT_COMPARISON=c SRT_ARM=a SRT_MODE=direct SRT_RUN_ID=r1 SRT_PYTHON=python3\n"
        + "SRT_STOP_GRACE=1 SRT_HEALTH_TIMEOUT=30 SRT_HEALTH_INTERVAL=1\n"
        + "RUN_DIR=" + Shell.quote(runDir.toString()) + "\ncd \"$RUN_DIR\"\n" + BashLibrary.text() + "\nsrt_begin\n" + body;
    Bash.run(runDir, 60, List.of("bash", "-c", script));
    List<JsonNode> events = new ArrayList<>();
    for (String line : Files.readAllLines(runDir.resolve("events.jsonl"))) {
      events.add(Mappers.json().readTree(line));
    }
    return events;
  }

  private static JsonNode only(List<JsonNode> events, String event) {
    List<JsonNode> found = events.stream().filter(e -> e.path("event").asText().equals(event)).toList();
    assertThat(found).as(event + " in " + events).hasSize(1);
    return found.get(0);
  }

  /** Whether any process of group {@code pgid} is left. */
  private static boolean groupAlive(long pgid) throws IOException, InterruptedException {
    return Bash.run(null, 10, List.of("bash", "-c", "kill -0 -- -" + pgid + " 2>/dev/null")).code() == 0;
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static Duration between(JsonNode from, JsonNode to) {
    return Duration.between(Instant.parse(from.path("ts").asText()), Instant.parse(to.path("ts").asText()));
  }

  @Test
  void aLevelStillRunningAtItsDeadlineIsStoppedAndFailsTheRunNamingTheLevelAndTheDeadline() throws Exception {
    List<JsonNode> events = run("srt_benchmark_budget 3600\n"
        + "srt_level_started 2 3 4 '4 req/s' results/level-2\n"
        + "srt_run_benchmark 1 logs/benchmark-level-2.log " + ENDLESS + "\n"
        + "echo not reached >after\n");
    JsonNode started = only(events, "process-started");
    long pgid = started.path("pid").asLong();
    JsonNode failed = only(events, "failed");
    assertThat(failed.path("reason").asText()).isEqualTo("BenchmarkTimedOut");
    assertThat(failed.path("message").asText()).isEqualTo("level 2/3 (4 req/s): the benchmark was still running at its deadline "
        + "of 1s: stopped it (pid " + pgid + "; see logs/benchmark-level-2.log)");
    // Not before its deadline: whole seconds ($SECONDS) could have ended it at once.
    assertThat(between(started, failed)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    JsonNode exited = only(events, "process-exited");
    assertThat(exited.path("name").asText()).isEqualTo("benchmark-level-2");
    assertThat(exited.path("code").asInt()).as("killed: it ignored TERM").isEqualTo(137);
    assertThat(only(events, "finished").path("status").asText()).isEqualTo("failed");
    assertThat(runDir.resolve("after")).doesNotExist();
    long child = Long.parseLong(Files.readString(runDir.resolve("bench-child")).trim());
    await().atMost(Duration.ofSeconds(10)).until(() -> !groupAlive(pgid) && !alive(child));
  }

  @Test
  void noBenchmarkOutlivesTheRunsBudget() throws Exception {
    // A level's own deadline of an hour, cut to the 2 s left of the run's budget.
    List<JsonNode> events = run("srt_benchmark_budget 2\nsrt_run_benchmark 3600 logs/benchmark.log " + ENDLESS + "\n");
    JsonNode failed = only(events, "failed");
    assertThat(failed.path("reason").asText()).isEqualTo("BenchmarkTimedOut");
    assertThat(failed.path("message").asText()).startsWith("the benchmark was still running at the end of spec.execution.maxDuration "
        + "(2s for the whole benchmarking of the run): stopped it (pid ");
    assertThat(between(only(events, "process-started"), failed)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
    long pgid = only(events, "process-started").path("pid").asLong();
    await().atMost(Duration.ofSeconds(10)).until(() -> !groupAlive(pgid));
  }

  @Test
  void aBenchmarkPastTheRunsBudgetIsNotStarted() throws Exception {
    List<JsonNode> events = run("srt_benchmark_budget 0\nsrt_level_started 3 3 8 c=8 results/level-3\n"
        + "srt_run_benchmark 60 logs/benchmark-level-3.log bash -c 'touch started'\n");
    assertThat(only(events, "failed").path("message").asText()).isEqualTo("level 3/3 (c=8): not started: the run's benchmarking "
        + "reached the end of spec.execution.maxDuration (0s for the whole benchmarking of the run)");
    assertThat(events).noneMatch(e -> e.path("event").asText().equals("process-started"));
    assertThat(runDir.resolve("started")).doesNotExist();
  }

  @Test
  void aBenchmarkThatEndsInTimeSucceeds() throws Exception {
    List<JsonNode> events = run("srt_benchmark_budget 60\nsrt_run_benchmark 2 logs/benchmark.log bash -c 'sleep 0.2; echo done'\n");
    assertThat(events).noneMatch(e -> e.path("event").asText().equals("failed"));
    assertThat(only(events, "process-exited").path("code").asInt()).isZero();
    assertThat(only(events, "finished").path("status").asText()).isEqualTo("succeeded");
  }
}
