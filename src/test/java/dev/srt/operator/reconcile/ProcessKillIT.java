package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.ArmPhase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each process of a run killed with SIGKILL while its arm benchmarks, through the whole operator on
 * Slurm over SSH (one comparison, one arm per process, one after the other): the arm fails with a
 * message naming the process that died, its signal and pid, a {@code Failed} Event says the same,
 * and nothing of the run is left on the host (no process, a finished job, no port listening).
 */
class ProcessKillIT {
  static final String RC = "kills";
  static final String SGL_ROUTER = "frontend: {type: sgl-router, source: /src/sglang/experimental/sgl-router, args: {policy: cache_aware}}";
  static final String DYNAMO = "frontend: {type: dynamo, args: {router-mode: kv}}\n  dynamo: {sidecar: {enabled: true}}";

  /** Arm {@code arm} kills the process whose command line has {@code words}; its message must contain {@code expected(pid)}. */
  record Kill(String arm, String frontend, String words, LongFunction<String> expected) {}

  OperatorOnTestHost host;

  @AfterEach
  void stop() throws Exception {
    if (host != null) {
      host.close();
    }
  }

  @Test
  void eachProcessKilledMidRunFailsItsArmNamingTheProcess() throws Exception {
    List<Kill> kills = List.of(
        new Kill("engine", SGL_ROUTER, "emulate sglang-worker",
            pid -> "ProcessExited: worker-0 exited with code 137 (signal 9, KILL), pid "),
        new Kill("sgl-router", SGL_ROUTER, "emulate router sgl-router",
            pid -> "ProcessExited: router exited with code 137 (signal 9, KILL), pid "),
        new Kill("benchmark", SGL_ROUTER, "emulate bench-serving",
            pid -> "BenchmarkFailed: the benchmark exited with code 137 (signal 9, KILL), pid "),
        new Kill("dynamo-engine", DYNAMO, "emulate sglang-worker",
            pid -> "worker-0: engine exited with code 137 (signal 9, KILL), pid " + pid + " (see logs/engine-0.log); stopping the sidecar"),
        new Kill("dynamo-sidecar", DYNAMO, "emulate dynamo-sidecar",
            pid -> "worker-0: sidecar exited with code 137 (signal 9, KILL), pid " + pid + " (see logs/sidecar-0.log); stopping the engine"),
        new Kill("dynamo-frontend", DYNAMO, "emulate router dynamo",
            pid -> "ProcessExited: router exited with code 137 (signal 9, KILL), pid "));
    host = OperatorOnTestHost.start("srt-kill-");
    host.cluster("box", "slurm", Map.of());
    StringBuilder arms = new StringBuilder();
    kills.forEach(k -> arms.append("- name: ").append(k.arm()).append("\n  ").append(k.frontend()).append('\n'));
    host.comparison(RC, "box", arms.toString());

    List<Long> killed = new ArrayList<>();
    for (Kill k : kills) {
      ArmStatus benchmarking = host.awaitArm(RC, k.arm(), Duration.ofSeconds(90),
          a -> a.phase.equals(ArmPhase.Benchmarking.name()) || a.phase().terminal());
      assertThat(benchmarking.phase).as(k.arm() + ": " + benchmarking.message).isEqualTo(ArmPhase.Benchmarking.name());
      await().atMost(Duration.ofSeconds(10)).until(() -> OperatorOnTestHost.processes(benchmarking.runId, k.words()).size() == 1);
      long pid = OperatorOnTestHost.processes(benchmarking.runId, k.words()).get(0);
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      killed.add(pid);
    }

    await().atMost(Duration.ofSeconds(60)).until(() -> host.get(RC).getStatus().arms.stream().allMatch(a -> a.phase().terminal()));
    for (int i = 0; i < kills.size(); i++) {
      Kill k = kills.get(i);
      ArmStatus a = host.arm(RC, k.arm());
      String expected = k.expected().apply(killed.get(i));
      assertThat(a.phase).as(host.diagnostics()).isEqualTo(ArmPhase.Failed.name());
      assertThat(a.message).as(k.arm()).contains(expected);
      assertThat(host.events(RC)).as(k.arm()).anySatisfy(e -> assertThat(e).startsWith("Failed arm " + k.arm() + ": failed: ").contains(expected));
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(OperatorOnTestHost.live(a.runId)).as(k.arm()).isEmpty());
      assertThat(OperatorOnTestHost.jobState(a.jobId)).as(k.arm()).isEqualTo("FAILED");
    }
    assertThat(OperatorOnTestHost.listening(OperatorOnTestHost.ARM_PORTS)).isEmpty();
  }
}
