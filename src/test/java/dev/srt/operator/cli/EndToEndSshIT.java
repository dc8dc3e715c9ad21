package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.HealthCheckSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.ExecResult;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.SlurmBackend;
import dev.srt.operator.host.Submission;
import dev.srt.operator.host.Transport;
import dev.srt.operator.api.Mode;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.render.Scripts;
import dev.srt.operator.base.Shell;
import dev.srt.operator.testinfra.TestHosts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end over SSH, through the code path of {@code srt-operator apply} ({@link ArmRunner}):
 * GpuClusters on the test sshd (127.0.0.1:2222) in {@code mode: slurm} (the test Slurm with 8
 * fake GPUs) and {@code mode: direct}, whose PATH starts with the emulator's shims, run the three
 * example arms. The runs use the scripts' fixed ports, so tests run one run at a time and every
 * test ends (or cancels) its runs before the next starts.
 */
class EndToEndSshIT {
  private static final Path COMPARISON = Path.of("examples/router-comparison.yaml");
  private static final List<String> ARMS = List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy");
  /** Every port the example arms listen on (router, workers, gRPC, sidecar system ports). */
  private static final List<Integer> PORTS = List.of(8000, 6100, 6132, 50051, 50052, 7500, 7501);
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(4);

  private static SshEmulatedHost emulated;

  private Transport transport;
  private final List<Started> started = new ArrayList<>();

  private record Started(Backend backend, RunRef ref, String jobId) {}

  @BeforeAll
  static void emulatedHost() throws Exception {
    TestHosts.requireSlurm();
    emulated = SshEmulatedHost.install("srt-e2e-");
  }

  @AfterAll
  static void removeHost() throws IOException {
    SshEmulatedHost.remove(emulated);
  }

  /** Whatever a test started ends before the next test: cancelled, and gone from the host. */
  @AfterEach
  void endEverything() throws Exception {
    try {
      for (Started s : started) {
        s.backend().cancel(s.ref(), s.jobId());
      }
      for (Started s : started) {
        awaitGone(s);
      }
    } finally {
      if (transport != null) {
        transport.close();
      }
    }
  }

  // ------------------------------------------------------------------ the clusters and the runner

  private GpuCluster cluster(String mode, Map<String, String> env) {
    return emulated.cluster("e2e-" + mode, mode, env, TestHosts.slurmPartition());
  }

  /** The example comparison with short readiness settings. */
  private static RouterComparison comparison(String healthTimeout) {
    LoadedResources loaded = LoadedResources.load(List.of(COMPARISON));
    assertThat(loaded.hasErrors()).as(loaded.problems().toString()).isFalse();
    RouterComparison rc = loaded.comparisons().get(0);
    rc.getSpec().healthCheck = new HealthCheckSpec();
    rc.getSpec().healthCheck.timeout = healthTimeout;
    rc.getSpec().healthCheck.interval = "1s";
    // A quarter of the example's prompt groups: these tests are about the runs, not the routers' figures.
    rc.getSpec().workload.args.put("gsp-num-groups", 16);
    return rc;
  }

  private ArmRunner runner(GpuCluster cluster, RouterComparison rc) throws Exception {
    if (transport == null) {
      transport = ApplyCommand.transport(cluster);
    }
    Backend backend = Backend.forMode(cluster.getSpec().mode(), transport, cluster.getSpec().workDir);
    return new ArmRunner(new dev.srt.operator.run.BackendRunHost(backend, cluster.getSpec().mode()), rc, cluster,
        cluster.getSpec().mode(), ArmRunner.pollInterval(cluster));
  }

  /** Records what a run reported; {@code onEvent} may act on the run (kill a process, cancel). */
  private final class Recorder implements ArmRunner.Listener {
    final List<RunEvent> events = new CopyOnWriteArrayList<>();
    final Consumer<RunEvent> onEvent;
    Backend backend;
    volatile ArmRunner.Run run;

    Recorder(Consumer<RunEvent> onEvent) {
      this.onEvent = onEvent;
    }

    @Override
    public void submitted(ArmRunner.Run r, Submission submission) {
      run = r;
      started.add(new Started(backend, r.ref, r.jobId));
    }

    @Override
    public void events(ArmRunner.Run r, List<RunEvent> seen) {
      events.addAll(seen);
      seen.forEach(onEvent);
    }

    int indexOf(String event, String name) {
      for (int i = 0; i < events.size(); i++) {
        if (events.get(i).event().equals(event) && (name == null || name.equals(events.get(i).text("name")))) {
          return i;
        }
      }
      return -1;
    }
  }

  /** Runs one arm to its end; a run that takes longer than {@link #RUN_TIMEOUT} is cancelled and fails the test. */
  private ArmRunner.Run run(ArmRunner runner, String arm, Recorder recorder) throws Exception {
    awaitPortsFree();
    recorder.backend = ((dev.srt.operator.run.BackendRunHost) runner.host()).backend();
    return SshEmulatedHost.runWithin(RUN_TIMEOUT, runner, arm, recorder);
  }

  // ------------------------------------------------------------------ tests

  @ParameterizedTest
  @ValueSource(strings = {"slurm", "direct"})
  void theThreeExampleArmsRunToSuccess(String mode) throws Exception {
    // worker 1 becomes healthy 2.5 s after worker 0
    GpuCluster cluster = cluster(mode, Map.of("SRT_EMULATOR_STARTUP_DELAY_MS_PORT_6132", "2500"));
    ArmRunner runner = runner(cluster, comparison("3m"));
    for (String arm : ARMS) {
      Recorder recorder = new Recorder(e -> { });
      ArmRunner.Run run = run(runner, arm, recorder);
      String dir = run.status.runDir;
      assertThat(run.phase()).as(diagnostics(run)).isEqualTo(ArmPhase.Succeeded);
      assertThat(run.status.results.requestThroughput).isNotNull();
      assertThat(run.status.results.meanTtftMs).isNotNull();
      assertThat(run.status.workers.ready).isEqualTo(2);

      // the job ran and succeeded, as the host itself says
      if (mode.equals("slurm")) {
        // (the run reports its end before Slurm has finished the job's epilogue: COMPLETING, then COMPLETED)
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(host("scontrol -o show job " + Shell.quote(run.jobId))).contains("JobState=COMPLETED").contains("ExitCode=0:0"));
      } else {
        assertThat(host("cat " + Shell.quote(dir + "/exit-code")).strip()).isEqualTo("0");
      }

      // GPUs split 0-3 / 4-7 between the two workers' engines
      String engineLog = arm.equals("sgl-router") ? "worker" : "engine";
      assertThat(host("cat " + Shell.quote(dir + "/logs/" + engineLog + "-0.log"))).contains("CUDA_VISIBLE_DEVICES=0,1,2,3\n");
      assertThat(host("cat " + Shell.quote(dir + "/logs/" + engineLog + "-1.log"))).contains("CUDA_VISIBLE_DEVICES=4,5,6,7\n");

      // readiness order: the router counts as ready only after both workers' /health
      int w0 = recorder.indexOf("endpoint-ready", "worker-0");
      int w1 = recorder.indexOf("endpoint-ready", "worker-1");
      int router = recorder.indexOf("endpoint-ready", "router");
      assertThat(w0).isNotNegative();
      assertThat(w1).isNotNegative();
      assertThat(router).isGreaterThan(w0).isGreaterThan(w1);
      if (arm.equals("sgl-router")) {
        // started only once every worker serves: a router that registers a worker before its
        // /server_info answers never sees it on older SGLang builds
        assertThat(recorder.indexOf("process-started", "router")).as("the router's start").isGreaterThan(w0).isGreaterThan(w1);
      }

      // sidecars: started only after their engine's gRPC port was bound
      if (!arm.equals("sgl-router")) {
        for (int i = 0; i < 2; i++) {
          String engine = host("cat " + Shell.quote(dir + "/logs/engine-" + i + ".log"));
          String sidecar = host("cat " + Shell.quote(dir + "/logs/sidecar-" + i + ".log"));
          long bound = epochMs(engine, "native gRPC on 127\\.0\\.0\\.1:" + (50051 + i) + " \\(bound at epoch ms (\\d+)\\)");
          Matcher connected = Pattern.compile("connected to engine gRPC 127\\.0\\.0\\.1:" + (50051 + i)
              + " at epoch ms (\\d+) after (\\d+) attempt").matcher(sidecar);
          assertThat(connected.find()).as(sidecar).isTrue();
          assertThat(Long.parseLong(connected.group(1))).isGreaterThanOrEqualTo(bound);
          assertThat(connected.group(2)).as("connection attempts: the port was open when the sidecar started").isEqualTo("1");
          assertThat(host("cat " + Shell.quote(dir + "/logs/worker-" + i + ".log")))
              .contains("gRPC port " + (50051 + i) + " is up; sidecar started");
        }
      }
    }
  }

  /** Prefill/decode over SSH on Slurm: one Dynamo arm with a prefill and a decode engine, each with its sidecar. */
  @org.junit.jupiter.api.Test
  void aPrefillDecodeArmRunsOnSlurm() throws Exception {
    LoadedResources loaded = LoadedResources.load(List.of(Path.of("examples/router-comparison-disagg.yaml")));
    assertThat(loaded.hasErrors()).as(loaded.problems().toString()).isFalse();
    RouterComparison rc = loaded.comparisons().get(0);
    rc.getSpec().healthCheck = new HealthCheckSpec();
    rc.getSpec().healthCheck.timeout = "3m";
    rc.getSpec().healthCheck.interval = "1s";
    ArmRunner runner = runner(cluster("slurm", Map.of()), rc);

    ArmRunner.Run run = run(runner, "dynamo-kv", new Recorder(e -> { }));

    assertThat(run.phase()).as(diagnostics(run)).isEqualTo(ArmPhase.Succeeded);
    assertThat(run.status.workers.prefill.ready).isEqualTo(1);
    assertThat(run.status.workers.decode.ready).isEqualTo(1);
    assertThat(run.status.results.requestThroughput).isNotNull();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(host("scontrol -o show job " + Shell.quote(run.jobId))).contains("JobState=COMPLETED"));
    String dir = run.status.runDir;
    assertThat(host("cat " + Shell.quote(dir + "/logs/engine-prefill-0.log"))).contains("CUDA_VISIBLE_DEVICES=0,1,2,3\n");
    assertThat(host("cat " + Shell.quote(dir + "/logs/engine-decode-0.log"))).contains("CUDA_VISIBLE_DEVICES=4,5,6,7\n");
    assertThat(host("cat " + Shell.quote(dir + "/logs/etcd.log"))).isNotEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm", "direct"})
  void killingAnEngineStopsItsSidecarAndFailsTheArm(String mode) throws Exception {
    // worker 1 takes long to start, so the run is still in its first gate when worker 0's engine dies
    GpuCluster cluster = cluster(mode, Map.of("SRT_EMULATOR_STARTUP_DELAY_MS_PORT_6132", "20000"));
    ArmRunner runner = runner(cluster, comparison("3m"));
    AtomicReference<String> sidecarPid = new AtomicReference<>();
    AtomicReference<String> runId = new AtomicReference<>();
    Recorder recorder = new Recorder(e -> {
      if (e.event().equals("run-started")) {
        runId.set(e.text("runId"));
      }
      if (e.event().equals("endpoint-ready") && "worker-0".equals(e.text("name"))) {
        String engine = pidOf(runId.get(), "sglang-worker", "--port 6100");
        await().atMost(Duration.ofSeconds(30)).until(() -> pidOf(runId.get(), "dynamo-sidecar", "127.0.0.1:50051") != null);
        sidecarPid.set(pidOf(runId.get(), "dynamo-sidecar", "127.0.0.1:50051"));
        // A sidecar still starting its JVM when its engine dies is stopped before it can say so.
        String sidecarLog = Shell.quote(cluster.getSpec().workDir) + "/*/*/dynamo-kv/" + Shell.quote(runId.get()) + "/logs/sidecar-0.log";
        await().atMost(Duration.ofSeconds(30)).until(() -> host("cat " + sidecarLog + " 2>/dev/null || true").contains("connected to engine gRPC"));
        assertThat(engine).as("worker-0's engine").isNotNull();
        host("kill -9 " + engine);
      }
    });

    ArmRunner.Run run = run(runner, "dynamo-kv", recorder);

    assertThat(sidecarPid.get()).as("the test killed worker-0's engine; " + diagnostics(run)).isNotNull();
    assertThat(run.phase()).isEqualTo(ArmPhase.Failed);
    assertThat(run.status.message).startsWith("ProcessExited: worker-0 exited");
    assertThat(recorder.indexOf("process-exited", "worker-0")).isNotNegative();
    String dir = run.status.runDir;
    assertThat(host("cat " + Shell.quote(dir + "/logs/worker-0.log"))).contains("worker-0: engine exited").contains("stopping the sidecar");
    // the sidecar either saw its engine go or was stopped by the supervisor first
    assertThat(host("cat " + Shell.quote(dir + "/logs/sidecar-0.log"))).containsAnyOf("the engine went away", "stopping");
    assertThat(host("[ -e /proc/" + sidecarPid.get() + " ] && echo alive || echo gone").strip()).isEqualTo("gone");
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm", "direct"})
  void aCancelledRunLeavesNoProcessAndNoJob(String mode) throws Exception {
    // worker 1 never gets healthy within the test: the run waits in its first gate until cancelled
    GpuCluster cluster = cluster(mode, Map.of("SRT_EMULATOR_STARTUP_DELAY_MS_PORT_6132", "600000"));
    ArmRunner runner = runner(cluster, comparison("3m"));
    AtomicBoolean stopped = new AtomicBoolean();
    Recorder recorder = new Recorder(e -> {
      if (e.event().equals("endpoint-ready") && "worker-0".equals(e.text("name")) && stopped.compareAndSet(false, true)) {
        runner.stop();
      }
    });

    ArmRunner.Run run = run(runner, "sgl-router", recorder);

    assertThat(stopped).isTrue();
    assertThat(run.phase()).as(diagnostics(run)).isEqualTo(ArmPhase.Cancelled);
    awaitGone(new Started(((dev.srt.operator.run.BackendRunHost) runner.host()).backend(), run.ref, run.jobId));
    if (mode.equals("slurm")) {
      assertThat(host("squeue --states=all -h -j " + Shell.quote(run.jobId) + " -o %T").strip()).isEqualTo("CANCELLED");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"slurm", "direct"})
  void aSecondSubmitOfTheSameRunFindsTheFirstJob(String mode) throws Exception {
    GpuCluster cluster = cluster(mode, Map.of("SRT_EMULATOR_STARTUP_DELAY_MS_PORT_6132", "600000"));
    ArmRunner runner = runner(cluster, comparison("3m"));
    Backend backend = ((dev.srt.operator.run.BackendRunHost) runner.host()).backend();
    RunRef ref = runner.ref("sgl-router", dev.srt.operator.run.Runs.newRunId());
    String script = Scripts.render(runner.plan("sgl-router"));
    awaitPortsFree();

    Submission first = backend.submit(ref, script);
    started.add(new Started(backend, ref, first.jobId()));
    Submission second = backend.submit(ref, script);

    assertThat(first.alreadyExisted()).isFalse();
    assertThat(second.alreadyExisted()).isTrue();
    assertThat(second.jobId()).isEqualTo(first.jobId());
    if (mode.equals("slurm")) {
      assertThat(host("squeue --states=all -h --name=" + Shell.quote(ref.jobName()) + " -o %i").strip().lines().toList())
          .containsExactly(first.jobId());
    }
    // one script ran: one run-started line in the run's events
    String events = backend.runDirectory(ref).events();
    await().atMost(Duration.ofSeconds(60)).until(() -> host("cat " + Shell.quote(events) + " 2>/dev/null").contains("endpoint-ready"));
    assertThat(host("grep -c '\"event\":\"run-started\"' " + Shell.quote(events)).strip()).isEqualTo("1");
  }

  // ------------------------------------------------------------------ helpers

  /** stdout of a command on the test host (over the SSH transport). */
  private String host(String command) {
    try {
      ExecResult r = transport.exec(command, Duration.ofSeconds(30));
      return r.stdout();
    } catch (HostException e) {
      throw new IllegalStateException(command + ": " + e.getMessage(), e);
    }
  }

  /** What a failed assertion about a run should show: its status, and the end of its script's log. */
  private String diagnostics(ArmRunner.Run run) {
    return run.ref.arm() + " " + run.status.phase + ": " + run.status.message + "\n--- logs/script.log:\n"
        + host("tail -n 40 " + Shell.quote(run.status.runDir + "/logs/script.log") + " 2>&1");
  }

  /** The pid of the run's process whose command line contains all of {@code words}, or null. */
  private String pidOf(String runId, String... words) {
    StringBuilder matches = new StringBuilder();
    for (String w : words) {
      matches.append(" && printf '%s\\n' \"$c\" | grep -qF -- ").append(Shell.quote(w));
    }
    String out = host("for p in $(grep -lzxF -- " + Shell.quote("SRT_RUN_ID=" + runId) + " /proc/[0-9]*/environ 2>/dev/null"
        + " | cut -d/ -f3); do c=$(tr '\\0' ' ' </proc/$p/cmdline 2>/dev/null) || continue; true" + matches + " && echo \"$p\"; done");
    return out.lines().findFirst().orElse(null);
  }

  /** No process of the run is left, and (Slurm) its job is neither pending nor running. */
  private void awaitGone(Started s) {
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
      assertThat(host("grep -lzxF -- " + Shell.quote("SRT_RUN_ID=" + s.ref().runId()) + " /proc/[0-9]*/environ 2>/dev/null").strip())
          .as("processes of run " + s.ref()).isEmpty();
      if (s.backend() instanceof SlurmBackend && s.jobId() != null) {
        assertThat(host("squeue -h -j " + Shell.quote(s.jobId()) + " -o %T 2>/dev/null").strip())
            .as("Slurm job " + s.jobId()).isNotIn("PENDING", "RUNNING", "CONFIGURING", "COMPLETING");
      }
    });
  }

  /** Before a run: nothing (of another test or another run) listens on the arms' ports. */
  private static void awaitPortsFree() {
    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> PORTS.stream().noneMatch(EndToEndSshIT::listening));
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static long epochMs(String log, String regex) {
    Matcher m = Pattern.compile(regex).matcher(log);
    assertThat(m.find()).as(log).isTrue();
    return Long.parseLong(m.group(1));
  }
}
