package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.base.Shell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run whose process dies says which one, how (the signal behind a code above 128) and with which
 * pid, in the {@code failed} event the arm's status message is made of: the library run with small
 * stand-in processes.
 */
class ProcessDeathIT {
  @TempDir Path runDir;

  /** The run's events after running {@code body} as a script of the library. */
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

  private static long startedPid(List<JsonNode> events, String name) {
    return events.stream().filter(e -> e.path("event").asText().equals("process-started") && e.path("name").asText().equals(name))
        .findFirst().orElseThrow().path("pid").asLong();
  }

  @Test
  void aServerKilledWithSigkillIsNamedWithItsSignalAndPid() throws Exception {
    List<JsonNode> events = run("""
        srt_start srv server logs/srv.log bash -c 'echo serving; sleep 60'
        sleep 0.5
        kill -KILL "${SRT_PIDS[0]}"
        while true; do srt_check_alive; sleep 0.1; done
        """);
    long pid = startedPid(events, "srv");
    JsonNode failed = only(events, "failed");
    assertThat(failed.path("reason").asText()).isEqualTo("ProcessExited");
    assertThat(failed.path("message").asText())
        .isEqualTo("srv exited with code 137 (signal 9, KILL), pid " + pid + ": serving (see logs/srv.log)");
    JsonNode exited = only(events, "process-exited");
    assertThat(exited.path("code").asInt()).isEqualTo(137);
    assertThat(exited.path("pid").asLong()).isEqualTo(pid);
  }

  @Test
  void aSupervisorsAccountOfItsProcessIsQuotedEvenWhenSomethingWroteAfterIt() throws Exception {
    // srun writes its own line after the supervisor's, which names the engine or the sidecar.
    List<JsonNode> events = run("""
        srt_start worker-0 worker logs/worker-0.log bash -c 'echo "worker-0: sidecar exited with code 137 (signal 9, KILL), pid 7; stopping the engine"; echo "srun: error: node: task 0: Exited with exit code 137"; exit 137'
        while true; do srt_check_alive; sleep 0.1; done
        """);
    assertThat(only(events, "failed").path("message").asText())
        .startsWith("worker-0 exited with code 137 (signal 9, KILL), pid ")
        .endsWith(": worker-0: sidecar exited with code 137 (signal 9, KILL), pid 7; stopping the engine (see logs/worker-0.log)");
  }

  @Test
  void aServerThatDiesWhileTheBenchmarkRunsIsTheCauseEvenWhenTheBenchmarkEndsFirst() throws Exception {
    // The benchmark ends (with errors) at once when the router goes: before the loop looks again.
    List<JsonNode> events = run("""
        srt_start router router logs/router.log bash -c 'echo routing; sleep 60'
        sleep 0.3
        srt_run_benchmark 60 logs/benchmark.log bash -c 'kill -KILL "$1"; while kill -0 "$1" 2>/dev/null; do sleep 0.01; done; exit 1' bench "${SRT_PIDS[0]}"
        """);
    JsonNode failed = only(events, "failed");
    assertThat(failed.path("reason").asText()).isEqualTo("ProcessExited");
    assertThat(failed.path("message").asText()).startsWith("router exited with code 137 (signal 9, KILL), pid " + startedPid(events, "router"));
  }

  @Test
  void aServerStillEndingWhenTheBenchmarkFailsIsTheCause() throws Exception {
    // A Dynamo worker whose engine died first stops its sidecar: it ends a moment after the
    // benchmark has failed on it (CI run of stop 26 blamed the benchmark).
    List<JsonNode> events = run("""
        srt_start worker-0 worker logs/worker-0.log bash -c 'while [ ! -e engine-gone ]; do sleep 0.05; done; echo "worker-0: engine exited"; sleep 1.5; exit 137'
        sleep 0.3
        srt_run_benchmark 60 logs/benchmark.log bash -c 'touch engine-gone; exit 1'
        """);
    JsonNode failed = only(events, "failed");
    assertThat(failed.path("reason").asText()).isEqualTo("ProcessExited");
    assertThat(failed.path("message").asText()).startsWith("worker-0 exited with code 137").contains("worker-0: engine exited");
  }

  @Test
  void aKilledBenchmarkIsNamedWithItsSignal() throws Exception {
    List<JsonNode> events = run("""
        srt_start router router logs/router.log bash -c 'sleep 60'
        srt_run_benchmark 60 logs/benchmark.log bash -c 'echo "3/8 requests"; kill -KILL $$'
        """);
    JsonNode failed = only(events, "failed");
    assertThat(failed.path("reason").asText()).isEqualTo("BenchmarkFailed");
    assertThat(failed.path("message").asText()).isEqualTo("the benchmark exited with code 137 (signal 9, KILL), pid "
        + startedPid(events, "benchmark") + ": 3/8 requests (see logs/benchmark.log)");
  }
}
