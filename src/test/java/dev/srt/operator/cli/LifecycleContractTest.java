package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.Mode;
import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.HostProbe;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.results.ResultMetric;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.results.RunResults;
import dev.srt.operator.host.Submission;
import dev.srt.operator.host.SubmittedFiles;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.reconcile.RunObservations;
import dev.srt.operator.run.PastRuns;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.run.RunRecord;
import dev.srt.operator.run.RunTracker;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The run lifecycle has one set of rules ({@link RunTracker}) and three drivers: the CLI's loop
 * ({@link ArmRunner}), the operator's poller ({@link RunObservations}) and {@code report}
 * ({@link PastRuns}). The same script of what the host says, look by look, goes through the CLI and
 * the operator, and both must show the same phase, reason, finish time and message after every
 * look, and the same actions on the host; the report, reading the end state afresh, must agree on
 * how the run ended.
 */
class LifecycleContractTest {
  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  static final RunResults NUMBERS = RunResults.of(Map.of(ResultMetric.REQUEST_THROUGHPUT, "12.5", ResultMetric.COMPLETED, "40"));

  /** What the host says at one look, at {@code seconds} after submission. */
  record Look(long seconds, JobStatus job, List<RunEvent> events, boolean more, Boolean resultsReadable) {}

  /** What a status shows after a look: the parts every driver must agree on. */
  record Seen(String phase, String reason, String finishedAt, String message) {
    static Seen of(ArmStatus s) {
      return new Seen(s.phase, s.reason, s.finishedAt, s.message);
    }
  }

  static final class Script {
    final String name;
    final List<Look> looks = new ArrayList<>();
    final List<String> expected = new ArrayList<>();

    Script(String name) {
      this.name = name;
    }

    /** At {@code seconds}, the job is {@code job} and the run has written {@code events}; {@code phase} is what every driver shows then. */
    Script look(long seconds, JobStatus job, String phase, RunEvent... events) {
      return look(seconds, job, phase, false, null, events);
    }

    Script look(long seconds, JobStatus job, String phase, boolean more, Boolean resultsReadable, RunEvent... events) {
      looks.add(new Look(seconds, job, List.of(events), more, resultsReadable));
      expected.add(phase);
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static RunEvent ev(long seconds, String event, String... kv) {
    ObjectNode node = JsonNodeFactory.instance.objectNode().put("event", event);
    for (int i = 0; i + 1 < kv.length; i += 2) {
      node.put(kv[i], kv[i + 1]);
    }
    return new RunEvent(T0.plusSeconds(seconds), event, node);
  }

  static JobStatus job(JobState state) {
    return JobStatus.of(state);
  }

  static Stream<Arguments> scripts() {
    return Stream.of(
        new Script("succeeds, results read at once")
            .look(1, job(JobState.RUNNING), "Building", ev(1, "run-started"), ev(1, "phase", "phase", "building"))
            .look(5, job(JobState.RUNNING), "Starting", ev(4, "phase", "phase", "starting"),
                ev(5, "endpoint-ready", "name", "worker-0", "role", "worker", "url", "http://127.0.0.1:6100/health"))
            .look(9, job(JobState.RUNNING), "Ready",
                ev(8, "endpoint-ready", "name", "worker-1", "role", "worker", "url", "http://127.0.0.1:6132/health"),
                ev(9, "endpoint-ready", "name", "router", "role", "router", "url", "http://127.0.0.1:8000"),
                ev(9, "phase", "phase", "ready"))
            .look(12, job(JobState.RUNNING), "Benchmarking", ev(10, "phase", "phase", "benchmarking"))
            .look(40, job(JobState.COMPLETED), "Succeeded", false, true,
                ev(39, "result", "file", "results/bench-serving.jsonl"), ev(39, "finished", "status", "succeeded", "code", "0")),
        new Script("succeeds after two failed reads of its results")
            .look(1, job(JobState.RUNNING), "Benchmarking", ev(1, "phase", "phase", "benchmarking"))
            .look(30, job(JobState.COMPLETED), "Benchmarking", false, false, ev(29, "finished", "status", "succeeded", "code", "0"))
            .look(31, job(JobState.COMPLETED), "Benchmarking", false, false)
            .look(32, job(JobState.COMPLETED), "Succeeded", false, true),
        new Script("succeeds without results when they cannot be read")
            .look(1, job(JobState.RUNNING), "Benchmarking", ev(1, "phase", "phase", "benchmarking"))
            .look(30, job(JobState.COMPLETED), "Benchmarking", false, false, ev(29, "finished", "status", "succeeded", "code", "0"))
            .look(31, job(JobState.COMPLETED), "Benchmarking", false, false)
            .look(32, job(JobState.COMPLETED), "Succeeded", false, false),
        new Script("a purged job that wrote events fails a minute after it was last seen")
            .look(1, job(JobState.RUNNING), "Benchmarking", ev(1, "phase", "phase", "benchmarking"))
            .look(50, job(JobState.RUNNING), "Benchmarking")
            .look(80, job(JobState.NOT_FOUND), "Benchmarking")
            .look(109, job(JobState.NOT_FOUND), "Benchmarking")
            .look(111, job(JobState.NOT_FOUND), "Failed"),
        new Script("a job never listed fails a minute after submission")
            .look(2, job(JobState.NOT_FOUND), "Submitted")
            .look(59, job(JobState.NOT_FOUND), "Submitted")
            .look(61, job(JobState.NOT_FOUND), "Failed"),
        new Script("a job killed without outcome fails with its reason and is reaped")
            .look(1, job(JobState.RUNNING), "Starting", ev(1, "phase", "phase", "starting"))
            .look(20, new JobStatus(JobState.NODE_FAIL, "NodeDown", null), "Failed"),
        new Script("a job ended by the host waits for Slurm's final state")
            .look(1, job(JobState.RUNNING), "Benchmarking", ev(1, "phase", "phase", "benchmarking"))
            .look(20, new JobStatus(JobState.RUNNING, null, null), "Benchmarking",
                ev(19, "failed", "reason", "Interrupted", "message", "received SIGTERM"), ev(19, "finished", "status", "cancelled", "code", "143"))
            .look(22, new JobStatus(JobState.TIMEOUT, "TimeLimit", 143), "Failed"),
        new Script("a job state ahead of unread events waits for them")
            .look(1, job(JobState.RUNNING), "Benchmarking", ev(1, "phase", "phase", "benchmarking"))
            .look(30, new JobStatus(JobState.FAILED, null, 1), "Benchmarking", true, null, ev(28, "failed", "reason", "BenchmarkFailed",
                "message", "bench_serving exited with 1"))
            .look(31, new JobStatus(JobState.FAILED, null, 1), "Failed", ev(29, "finished", "status", "failed", "code", "1")))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scripts")
  void theCliAndTheOperatorShowTheSameAfterEveryLookAndTheReportAgreesOnTheEnd(Script script) {
    RouterComparison rc = Examples.comparison();
    GpuCluster cluster = Examples.cluster(Examples.DIRECT_CLUSTER);

    ScriptedHost cliHost = new ScriptedHost(script);
    List<Seen> cli = new ArrayList<>();
    ArmRunner runner = new ArmRunner(cliHost, rc, cluster, Mode.DIRECT, Duration.ofMillis(1), cliHost.clock);
    ArmRunner.Run run = runner.run("sgl-router", "r00c0ffee", new ArmRunner.Listener() {
      @Override
      public void polled(ArmRunner.Run r) {
        cli.add(Seen.of(r.status));
      }
    });

    ScriptedHost operatorHost = new ScriptedHost(script);
    List<Seen> operator = new CopyOnWriteArrayList<>();
    try (RunObservations observations = new RunObservations(id -> { }, Duration.ofMillis(1), operatorHost.clock)) {
      operatorHost.afterEachLook = () -> observations.latest(run.ref).ifPresent(step -> operator.add(Seen.of(step.status())));
      observations.track(new ResourceID("cmp", "default"), "default/box", operatorHost, run.ref, run.record, Duration.ofMillis(1));
      Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> operator.size() >= script.looks.size());
    }

    assertThat(cli).extracting(Seen::phase).as("the CLI, look by look").containsExactlyElementsOf(script.expected);
    assertThat(operator.subList(0, script.looks.size())).as("the operator, look by look").containsExactlyElementsOf(cli);
    assertThat(operatorHost.reaped).as("what each driver did on the host").isEqualTo(cliHost.reaped);
    assertThat(operatorHost.resultReads).isEqualTo(cliHost.resultReads);

    ScriptedHost reportHost = new ScriptedHost(script);
    reportHost.replayAll(run.record);
    try {
      List<PastRuns.PastRun> past = PastRuns.read(reportHost, "default", rc.getMetadata().getName(), List.of("sgl-router"), 1,
          T0.plusSeconds(script.looks.get(script.looks.size() - 1).seconds())).get("sgl-router");
      ArmStatus reported = past.get(0).status();
      assertThat(reported.phase).as("the report's end").isEqualTo(run.status.phase);
      assertThat(reported.reason).isEqualTo(run.status.reason);
      assertThat(reported.results == null).isEqualTo(run.status.results == null);
    } catch (HostException e) {
      throw new AssertionError(e);
    }
  }

  /** A host that answers look after look of a script, with a clock that reads each look's time. */
  static final class ScriptedHost implements RunHost {
    final Script script;
    final MutableClock clock = new MutableClock(T0);
    final List<String> reaped = new CopyOnWriteArrayList<>();
    final List<Boolean> resultReads = new CopyOnWriteArrayList<>();
    volatile Runnable afterEachLook = () -> { };
    private int next;
    private long offset;
    private RunRecord recorded;
    private boolean allAtOnce;

    ScriptedHost(Script script) {
      this.script = script;
    }

    /** For the report: one look that holds everything, at the last look's time. */
    void replayAll(RunRecord record) {
      recorded = record;
      allAtOnce = true;
    }

    private Look current() {
      return script.looks.get(Math.max(0, Math.min(next, script.looks.size()) - 1));
    }

    @Override
    public synchronized Map<RunRef, RunObservation> poll(Collection<ActiveRun> runs) {
      ActiveRun run = runs.iterator().next();
      if (allAtOnce) {
        next = script.looks.size();
        List<RunEvent> all = script.looks.stream().flatMap(l -> l.events().stream()).toList();
        return Map.of(run.run(), new RunObservation(current().job(), all, all.size(), false, false, 0));
      }
      if (next > 0) {
        afterEachLook.run();
      }
      Look look = script.looks.get(Math.min(next, script.looks.size() - 1));
      boolean fresh = next < script.looks.size();
      next++;
      clock.set(T0.plusSeconds(look.seconds()));
      List<RunEvent> events = fresh ? look.events() : List.of();
      offset += events.size();
      return Map.of(run.run(), new RunObservation(look.job(), events, offset, look.more(), false, 0));
    }

    @Override
    public synchronized RunResults results(RunRef run, dev.srt.operator.run.RunTracker.Reading reading) throws HostException {
      boolean readable = Boolean.TRUE.equals(current().resultsReadable());
      resultReads.add(readable);
      if (!readable) {
        throw new HostException(HostException.Kind.UNREACHABLE, "scripted host: connection reset");
      }
      return NUMBERS;
    }

    @Override
    public void cancel(RunRef run, String jobId) {
      reaped.add(run.runId() + " " + jobId);
    }

    @Override
    public Submission submit(RunRef run, RunFiles files) {
      return new Submission("42", false);
    }

    @Override
    public Map<String, List<LatestRuns.Found>> latestRuns(String namespace, String comparison, List<String> arms, int perArm) {
      return Map.of(recorded.arm(), List.of(new LatestRuns.Found(new RunRef(namespace, comparison, recorded.arm(), recorded.runId()),
          recorded.jobId())));
    }

    @Override
    public Map<RunRef, SubmittedFiles> submitted(Collection<RunRef> runs) {
      // what the CLI submitted: its plan, and a record submitted at T0
      return Map.of(runs.iterator().next(), new SubmittedFiles(Examples.plan("sgl-router", Mode.DIRECT).json(), null));
    }

    @Override
    public HostProbe.Facts probe() {
      throw new UnsupportedOperationException();
    }

    @Override
    public String runDir(RunRef run) {
      return run.runDir("/work");
    }

    @Override
    public String describe() {
      return "scripted host";
    }

    @Override
    public dev.srt.operator.api.Mode mode() {
      return dev.srt.operator.api.Mode.DIRECT;
    }

    @Override
    public void close() {}
  }

  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
      now = start;
    }

    void set(Instant at) {
      now = at;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
