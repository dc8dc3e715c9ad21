package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.JobProbe;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.LocalTransport;
import dev.srt.operator.host.RunDirectory;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import dev.srt.operator.host.Transport;
import dev.srt.operator.api.Mode;
import dev.srt.operator.api.ArmPhase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop of {@code apply} against a scripted host: a backend over {@link LocalTransport} whose
 * job state and events.jsonl are files the test writes, so every poll is the real batched poll.
 */
class ArmRunnerTest {
  private static RouterComparison comparison;
  private static GpuCluster cluster;

  @TempDir Path tmp;

  @BeforeAll
  static void examples() {
    LoadedResources loaded = LoadedResources.load(List.of(Path.of("examples/router-comparison.yaml")),
        Path.of("examples/gpu-cluster-direct.yaml"));
    assertThat(loaded.hasErrors()).as(loaded.problems().toString()).isFalse();
    comparison = loaded.comparisons().get(0);
    cluster = loaded.clusterFor(comparison).orElseThrow();
  }

  /** A host whose job state is the file {@code state} in the run directory (empty: unknown job). */
  private final class ScriptedBackend implements Backend {
    final Transport transport = new LocalTransport();
    final List<RunRef> submitted = new ArrayList<>();
    final List<RunRef> cancelled = new ArrayList<>();
    HostException submitError;

    @Override
    public Transport transport() {
      return transport;
    }

    @Override
    public RunDirectory runDirectory(RunRef run) {
      return RunDirectory.of(run, tmp.toString(), RunDirectory.DIRECT_SCRIPT);
    }

    @Override
    public Submission submit(RunRef run, RunFiles files) throws HostException {
      String script = files.script();
      SecretEnvFile secrets = files.secrets();
      if (submitError != null) {
        throw submitError;
      }
      submitted.add(run);
      write(run, "run.sh", script);
      if (files.record() != null) {
        write(run, "record.json", files.record());
      }
      write(run, "pid", "4242"); // as a direct host records its job
      write(run, "state", "RUNNING");
      return new Submission("4242", false);
    }

    @Override
    public void cancel(RunRef run, String jobId) {
      cancelled.add(run);
      write(run, "state", "CANCELLED");
    }

    @Override
    public JobProbe jobProbe() {
      return new JobProbe() {
        @Override
        public String bashFunction() {
          return """
              probe_jobs() {
                local n state
                for n in "${!run_dir[@]}"; do
                  state=''
                  IFS= read -r state 2>/dev/null <"${run_dir[n]}/state" || true
                  field "$n" state "$state"
                done
              }
              """;
        }

        @Override
        public JobStatus parse(Map<String, String> fields) {
          String state = fields.getOrDefault("state", "");
          // Only this backend's cancel writes CANCELLED, as only srt-operator's cancels write cancel-requested.
          return state.isEmpty() ? new JobStatus(JobState.NOT_FOUND, "no such job", null)
              : new JobStatus(JobState.valueOf(state), null, null, state.equals("CANCELLED"));
        }
      };
    }

    void write(RunRef run, String file, String content) {
      try {
        Path path = Path.of(runDirectory(run).path()).resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, content);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void event(RunRef run, String json) {
      try {
        Files.writeString(Path.of(runDirectory(run).events()), json + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Acts once per poll, with the number of polls so far. */
  private static final class Script implements ArmRunner.Listener {
    final List<String> calls = new ArrayList<>();
    RunRef ref;
    final List<RunEvent> events = new ArrayList<>();
    final Consumer<Integer> onPoll;
    int polls;

    Script(Consumer<Integer> onPoll) {
      this.onPoll = onPoll;
    }

    @Override
    public void submitted(ArmRunner.Run run, Submission submission) {
      ref = run.ref;
      calls.add("submitted " + submission.jobId());
    }

    @Override
    public void events(ArmRunner.Run run, List<RunEvent> seen) {
      events.addAll(seen);
    }

    @Override
    public void polled(ArmRunner.Run run) {
      calls.add("polled " + run.status.phase);
      onPoll.accept(++polls);
    }

    @Override
    public void cancelling(ArmRunner.Run run) {
      calls.add("cancelling");
    }

    @Override
    public void cancelled(ArmRunner.Run run, HostException error) {
      calls.add("cancelled " + (error == null ? "ok" : error.getMessage()));
    }
  }

  private static String ev(String event, String fields) {
    return "{\"ts\":\"2026-11-30T05:40:00Z\",\"event\":\"" + event + "\"" + (fields.isEmpty() ? "" : "," + fields) + "}";
  }

  @Test
  void followsTheEventsToSuccess() {
    ScriptedBackend backend = new ScriptedBackend();
    ArmRunner runner = new ArmRunner(new dev.srt.operator.run.BackendRunHost(backend, Mode.DIRECT), comparison, cluster, Mode.DIRECT, Duration.ofMillis(10));
    Script[] self = new Script[1];
    Script script = new Script(poll -> {
      RunRef[] ref = {self[0].ref};
      switch (poll) {
        case 1 -> {
          backend.event(ref[0], ev("phase", "\"phase\":\"starting\""));
          backend.event(ref[0], ev("endpoint-ready", "\"name\":\"worker-0\",\"role\":\"worker\",\"url\":\"http://127.0.0.1:6100\""));
        }
        case 2 -> {
          backend.event(ref[0], ev("endpoint-ready", "\"name\":\"worker-1\",\"role\":\"worker\",\"url\":\"http://127.0.0.1:6132\""));
          backend.event(ref[0], ev("endpoint-ready", "\"name\":\"router\",\"role\":\"router\",\"url\":\"http://127.0.0.1:8000\""));
          backend.write(ref[0], "results/bench-serving.jsonl",
              "{\"backend\":\"sglang-oai-chat\",\"completed\":40,\"request_throughput\":12.5,\"mean_ttft_ms\":80.0}\n");
          // a line anything in the run could append: not where results come from
          backend.event(ref[0], ev("summary", "\"metrics\":{\"request_throughput\":\"9999\",\"evil\":\"1\"}"));
          backend.event(ref[0], ev("finished", "\"status\":\"succeeded\",\"code\":0"));
          backend.write(ref[0], "state", "COMPLETED");
        }
        default -> { }
      }
    });
    self[0] = script;

    ArmRunner.Run run = runner.run("sgl-router", "r1a2b3c4d", script);

    assertThat(run.phase()).isEqualTo(ArmPhase.Succeeded);
    assertThat(run.ref).isEqualTo(new RunRef("default", "qwen3-32b-routers", "sgl-router", "r1a2b3c4d"));
    assertThat(run.jobId).isEqualTo("4242");
    assertThat(run.status.runDir).isEqualTo(tmp.resolve("default/qwen3-32b-routers/sgl-router/r1a2b3c4d").toString());
    assertThat(run.status.workers.ready).isEqualTo(2);
    assertThat(run.status.router.ready).isTrue();
    assertThat(dev.srt.operator.base.Mappers.json().convertValue(run.status.results, Map.class)).containsExactly(
        Map.entry("completed", 40L), Map.entry("request_throughput", 12.5), Map.entry("mean_ttft_ms", 80.0));
    assertThat(run.status.message).isEqualTo("benchmark finished");
    assertThat(run.ended).isNotNull();
    assertThat(script.calls).containsExactly("submitted 4242", "polled Submitted", "polled Starting", "polled Succeeded");
    assertThat(script.events).extracting(RunEvent::event).containsExactly("phase", "endpoint-ready", "endpoint-ready",
        "endpoint-ready", "summary", "finished");
    assertThat(Path.of(backend.runDirectory(run.ref).script())).content().startsWith("#!/usr/bin/env bash");
  }

  @Test
  void stopCancelsTheRunInFlightAndWaitsForItsEnd() {
    ScriptedBackend backend = new ScriptedBackend();
    ArmRunner runner = new ArmRunner(new dev.srt.operator.run.BackendRunHost(backend, Mode.DIRECT), comparison, cluster, Mode.DIRECT, Duration.ofSeconds(30));
    Script script = new Script(poll -> {
      if (poll == 1) {
        runner.stop(); // wakes the 30 s pause at once
      }
    });

    long start = System.nanoTime();
    ArmRunner.Run run = runner.run("dynamo-kv", "r00000001", script);

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    assertThat(run.phase()).isEqualTo(ArmPhase.Cancelled);
    assertThat(backend.cancelled).containsExactly(run.ref);
    assertThat(script.calls).containsExactly("submitted 4242", "polled Submitted", "cancelling", "cancelled ok", "polled Cancelled");
    // once stopped, nothing else is started
    assertThat(runner.run("dynamo-kv-policy", "r00000002", script)).isNull();
    assertThat(backend.submitted).hasSize(1);
  }

  @Test
  void aDetachedRunIsFollowedFromTheHostAndAStopOnlyStopsWatching() throws Exception {
    ScriptedBackend backend = new ScriptedBackend();
    var host = new dev.srt.operator.run.BackendRunHost(backend, Mode.DIRECT);
    // two repetitions: what --detach submits of one arm, and what apply and wait then look at
    RouterComparison twice = dev.srt.operator.base.Mappers.json().convertValue(comparison, RouterComparison.class);
    twice.getSpec().execution.repetitions = 2;
    ArmRunner detacher = new ArmRunner(host, twice, cluster, Mode.DIRECT, Duration.ofMillis(10));
    ArmRunner.Run first = detacher.submit("sgl-router", 1, 2, "r00000011", null);
    ArmRunner.Run second = detacher.submit("sgl-router", 2, 2, "r00000012", new RunFiles.After(first.ref, first.jobId));
    assertThat(first.hostError).isNull();
    assertThat(second.status.phase()).isEqualTo(ArmPhase.Submitted);
    assertThat(backend.submitted).containsExactly(first.ref, second.ref);

    var past = dev.srt.operator.run.PastRuns.read(host, ArmRunner.NAMESPACE, comparison.getMetadata().getName(), List.of("sgl-router"), 2,
        Instant.now());
    assertThat(RunWatch.inFlight(past)).extracting(p -> p.ref().runId()).containsExactly("r00000011", "r00000012");

    // wait: the first run is followed to its end, as apply follows one
    ArmRunner watcher = new ArmRunner(host, twice, cluster, Mode.DIRECT, Duration.ofMillis(10));
    Script finishing = new Script(poll -> {
      if (poll == 1) {
        backend.event(first.ref, ev("finished", "\"status\":\"failed\",\"code\":1,\"reason\":\"BenchmarkFailed\""));
        backend.write(first.ref, "state", "FAILED");
      }
    });
    ArmRunner.Run followed = watcher.attach(RunWatch.inFlight(past).get(0), 2, finishing);
    assertThat(followed.phase()).isEqualTo(ArmPhase.Failed);
    assertThat(finishing.calls.get(0)).isEqualTo("submitted 4242");

    // Ctrl-C in wait: the watching ends, the run goes on, no cancel is sent
    Script interrupted = new Script(poll -> watcher.stop());
    ArmRunner.Run left = watcher.attach(RunWatch.inFlight(past).get(1), 2, interrupted);
    assertThat(left.phase().terminal()).isFalse();
    assertThat(backend.cancelled).isEmpty();
    assertThat(interrupted.calls).doesNotContain("cancelling");
    assertThat(watcher.attach(RunWatch.inFlight(past).get(1), 2, interrupted)).as("stopped: nothing more is watched").isNull();

    // what apply asks before it submits: in flight while the second runs, not once it has ended
    assertThat(RunWatch.anyInFlight(host, twice, Clock.systemUTC())).isTrue();
    backend.write(second.ref, "results/bench-serving.jsonl", "{\"backend\":\"sglang-oai-chat\",\"completed\":40,\"request_throughput\":12.5}\n");
    backend.event(second.ref, ev("finished", "\"status\":\"succeeded\",\"code\":0"));
    backend.write(second.ref, "state", "COMPLETED");
    assertThat(RunWatch.anyInFlight(host, twice, Clock.systemUTC())).as("a run that succeeded, its results still unread").isFalse();
  }

  @Test
  void aJobTheHostForgetsWithoutAnOutcomeFailsTheArm() {
    ScriptedBackend backend = new ScriptedBackend();
    // every reading of the clock is 20 s later: the minute without a job passes in a few polls
    Clock jumping = new Clock() {
      private Instant now = Instant.parse("2026-11-30T05:40:00Z");

      @Override
      public synchronized Instant instant() {
        now = now.plusSeconds(20);
        return now;
      }

      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }
    };
    ArmRunner runner = new ArmRunner(new dev.srt.operator.run.BackendRunHost(backend, Mode.DIRECT), comparison, cluster, Mode.DIRECT, Duration.ofMillis(10), jumping);
    Script[] self = new Script[1];
    Script script = new Script(poll -> backend.write(self[0].ref, "state", ""));
    self[0] = script;

    ArmRunner.Run run = runner.run("sgl-router", "r00000003", script);

    assertThat(run.phase()).isEqualTo(ArmPhase.Failed);
    assertThat(run.status.message).startsWith("the host no longer knows job 4242");
  }

  @Test
  void aRefusedSubmissionFailsTheArmWithTheHostError() {
    ScriptedBackend backend = new ScriptedBackend();
    backend.submitError = new HostException(HostException.Kind.UNREACHABLE, "ssh://u@h:22: connection refused");
    ArmRunner runner = new ArmRunner(new dev.srt.operator.run.BackendRunHost(backend, Mode.DIRECT), comparison, cluster, Mode.DIRECT, Duration.ofMillis(10));

    ArmRunner.Run run = runner.run("sgl-router", "r00000004", new Script(p -> { }));

    assertThat(run.phase()).isEqualTo(ArmPhase.Failed);
    assertThat(run.hostError).isSameAs(backend.submitError);
    assertThat(run.status.message).isEqualTo("submit failed: ssh://u@h:22: connection refused");
    assertThat(run.status.workers.total).isEqualTo(2);
  }

  @Test
  void runIdsArePrefixedHex() {
    assertThat(dev.srt.operator.run.Runs.newRunId()).matches("r[0-9a-f]{8}");
    assertThat(dev.srt.operator.run.Runs.newRunId()).isNotEqualTo(dev.srt.operator.run.Runs.newRunId());
  }

  @Test
  void pollsAtMostEverySecond() {
    GpuCluster c = new GpuCluster();
    c.setSpec(new dev.srt.operator.api.GpuClusterSpec());
    assertThat(ArmRunner.pollInterval(c)).isEqualTo(Duration.ofSeconds(1));
    c.getSpec().pollInterval = "500ms";
    assertThat(ArmRunner.pollInterval(c)).isEqualTo(Duration.ofMillis(500));
    c.getSpec().pollInterval = "30s";
    assertThat(ArmRunner.pollInterval(c)).isEqualTo(Duration.ofSeconds(1));
  }
}
