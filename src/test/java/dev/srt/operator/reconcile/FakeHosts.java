package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunHost;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.HostProbe;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.host.SubmittedFiles;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.results.ResultMetric;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.results.RunResults;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A GPU host in memory: jobs keyed by run (so a repeated submit finds the first job, as the real
 * backends do), scripted events, and failures that tests switch on. State lives in {@link State} so
 * that a "restarted operator" can get fresh FakeHosts over the same host.
 */
final class FakeHosts implements Hosts {
  /** The host itself, shared across operator restarts. */
  static final class State {
    final Map<RunRef, String> jobs = new LinkedHashMap<>();
    final Map<RunRef, List<RunEvent>> events = new LinkedHashMap<>();
    final Map<RunRef, JobStatus> jobStatus = new LinkedHashMap<>();
    final Map<RunRef, String> scripts = new LinkedHashMap<>();
    /** The plan.json each run was submitted with (null: none). */
    final Map<RunRef, String> plans = new LinkedHashMap<>();
    /** The record.json each run was submitted with (null: none). */
    final Map<RunRef, String> records = new LinkedHashMap<>();
    /** The secret.env content each run was submitted with. */
    final Map<RunRef, SecretEnvFile> secretEnv = new LinkedHashMap<>();
    final List<RunRef> cancelled = new CopyOnWriteArrayList<>();
    final AtomicInteger submitCalls = new AtomicInteger();
    final AtomicInteger pollCalls = new AtomicInteger();
    final AtomicInteger resultsCalls = new AtomicInteger();
    /** The results each run's result files give; a run without an entry wrote none. */
    final Map<RunRef, RunResults> results = new LinkedHashMap<>();
    /** How many of the next reads of result files fail as if the host dropped the connection. */
    final AtomicInteger resultsFailures = new AtomicInteger();
    final AtomicInteger nextJob = new AtomicInteger(1000);
    volatile boolean unreachable;
    /** When set, each submit waits until it is counted down (a host that takes its time). */
    volatile java.util.concurrent.CountDownLatch submitGate;
    /**
     * Labels of the requirements the host lacks; null: the host cannot be checked (as every fake
     * before the prerequisite check), an empty set: it has everything.
     */
    volatile java.util.Set<String> missing;
    final AtomicInteger checkCalls = new AtomicInteger();

    synchronized List<RunRef> runs() {
      return new ArrayList<>(jobs.keySet());
    }

    synchronized RunRef runOf(String arm) {
      return jobs.keySet().stream().filter(r -> r.arm().equals(arm)).reduce((a, b) -> b).orElse(null);
    }

    /** Appends an event the run's script would write. */
    synchronized void emit(RunRef run, String event, String... fields) {
      ObjectNode node = Mappers.json().createObjectNode();
      node.put("event", event);
      for (int i = 0; i + 1 < fields.length; i += 2) {
        node.put(fields[i], fields[i + 1]);
      }
      events.computeIfAbsent(run, r -> new ArrayList<>()).add(new RunEvent(Instant.now(), event, node));
      if (event.equals("finished")) {
        jobStatus.put(run, new JobStatus("succeeded".equals(node.path("status").asText()) ? JobState.COMPLETED : JobState.FAILED, null, 0));
      }
    }

    /** Appends a whole events.jsonl line, as anything in the run could. */
    synchronized void emitLine(RunRef run, String json) {
      try {
        var node = Mappers.json().readTree(json);
        events.computeIfAbsent(run, r -> new ArrayList<>()).add(new RunEvent(Instant.now(), node.path("event").asText(), node));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalArgumentException(e);
      }
    }

    /**
     * What the run's result files give (metric key, value, ...), as the host layer would read them,
     * with the facts.json every run writes (agreeing facts, unless {@link #writeFacts} gave others).
     */
    synchronized void writeResults(RunRef run, String... metrics) {
      Map<ResultMetric, String> m = new EnumMap<>(ResultMetric.class);
      for (int i = 0; i + 1 < metrics.length; i += 2) {
        m.put(ResultMetric.of(metrics[i]).orElseThrow(), metrics[i + 1]);
      }
      RunResults before = results.get(run);
      results.put(run, RunResults.of(m).withFacts(before != null && before.facts() != null ? before.facts()
          : dev.srt.operator.verdict.AgreeingFacts.of()));
    }

    /** Adds what the run recorded about itself (facts.json) to its results. */
    synchronized void writeFacts(RunRef run, dev.srt.operator.api.RunFacts facts) {
      results.put(run, results.getOrDefault(run, RunResults.of(Map.of())).withFacts(facts));
    }

    /** The events of a run that goes from start to a successful benchmark. */
    void succeed(RunRef run) {
      emit(run, "run-started");
      emit(run, "phase", "phase", "building");
      emit(run, "phase", "phase", "starting");
      emit(run, "endpoint-ready", "name", "worker-0", "role", "worker", "url", "http://127.0.0.1:6100");
      emit(run, "endpoint-ready", "name", "worker-1", "role", "worker", "url", "http://127.0.0.1:6132");
      emit(run, "gate-passed", "gate", "workers-health");
      emit(run, "endpoint-ready", "name", "router", "role", "router", "url", "http://127.0.0.1:8000");
      emit(run, "phase", "phase", "ready");
      emit(run, "phase", "phase", "benchmarking");
      emit(run, "result", "file", "results/bench-serving.jsonl");
      emit(run, "finished", "status", "succeeded", "code", "0");
    }
  }

  final State state;

  FakeHosts(State state) {
    this.state = state;
  }

  @Override
  public RunHost forCluster(GpuCluster cluster) {
    return new Host();
  }

  @Override
  public void close() {}

  private final class Host implements RunHost {
    @Override
    public Submission submit(RunRef run, RunFiles files) throws HostException {
      String script = files.script();
      SecretEnvFile secrets = files.secrets();
      state.submitCalls.incrementAndGet();
      java.util.concurrent.CountDownLatch gate = state.submitGate;
      if (gate != null) {
        try {
          gate.await(5, java.util.concurrent.TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new HostException(HostException.Kind.TIMEOUT, "fake host: interrupted while submitting");
        }
      }
      check();
      synchronized (state) {
        String existing = state.jobs.get(run);
        if (existing != null) {
          return new Submission(existing, true);
        }
        String job = String.valueOf(state.nextJob.incrementAndGet());
        state.jobs.put(run, job);
        state.scripts.put(run, script);
        state.plans.put(run, files.plan());
        state.records.put(run, files.record());
        state.secretEnv.put(run, secrets);
        state.jobStatus.put(run, new JobStatus(JobState.RUNNING, null, null));
        return new Submission(job, false);
      }
    }

    @Override
    public void cancel(RunRef run, String jobId) throws HostException {
      check();
      synchronized (state) {
        state.cancelled.add(run);
        JobStatus s = state.jobStatus.get(run);
        if (s != null && !s.terminal()) {
          state.jobStatus.put(run, new JobStatus(JobState.CANCELLED, null, null, true));
        }
      }
    }

    @Override
    public Map<RunRef, RunObservation> poll(Collection<ActiveRun> runs) throws HostException {
      state.pollCalls.incrementAndGet();
      check();
      Map<RunRef, RunObservation> out = new LinkedHashMap<>();
      synchronized (state) {
        for (ActiveRun a : runs) {
          List<RunEvent> all = state.events.getOrDefault(a.run(), List.of());
          int from = (int) Math.min(Math.max(a.eventsOffset(), 0), all.size());
          JobStatus job = state.jobStatus.getOrDefault(a.run(), new JobStatus(JobState.NOT_FOUND, null, null));
          out.put(a.run(), new RunObservation(job, all.subList(from, all.size()), all.size(), false, false, 0));
        }
      }
      return out;
    }

    @Override
    public RunResults results(RunRef run, dev.srt.operator.run.RunTracker.Reading reading) throws HostException {
      state.resultsCalls.incrementAndGet();
      check();
      if (state.resultsFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new HostException(HostException.Kind.UNREACHABLE, "fake host: connection reset");
      }
      synchronized (state) {
        return state.results.getOrDefault(run, RunResults.none("no headline numbers in the run's result files"));
      }
    }

    @Override
    public Map<String, List<LatestRuns.Found>> latestRuns(String namespace, String comparison, List<String> arms, int perArm)
        throws HostException {
      check();
      Map<String, List<LatestRuns.Found>> out = new LinkedHashMap<>();
      synchronized (state) {
        state.jobs.forEach((run, job) -> {
          if (run.namespace().equals(namespace) && run.comparison().equals(comparison) && arms.contains(run.arm())) {
            out.computeIfAbsent(run.arm(), a -> new ArrayList<>()).add(new LatestRuns.Found(run, job));
          }
        });
      }
      out.replaceAll((arm, runs) -> runs.subList(Math.max(0, runs.size() - perArm), runs.size()));
      return out;
    }

    @Override
    public Map<RunRef, SubmittedFiles> submitted(Collection<RunRef> runs) throws HostException {
      check();
      Map<RunRef, SubmittedFiles> out = new LinkedHashMap<>();
      synchronized (state) {
        runs.forEach(r -> out.put(r, new SubmittedFiles(state.plans.get(r), state.records.get(r))));
      }
      return out;
    }

    @Override
    public HostProbe.Facts probe() throws HostException {
      check();
      return new HostProbe.Facts("slurm 22.05.8", List.of("debug*"), List.of("node1 gpu:8"), "node1");
    }

    @Override
    public boolean checksPrerequisites() {
      return state.missing != null;
    }

    @Override
    public dev.srt.operator.host.HostCheck.Report check(List<dev.srt.operator.plan.Prerequisites.Needed> needed, List<String> path,
        Map<String, String> env) throws HostException {
      state.checkCalls.incrementAndGet();
      check();
      java.util.Set<String> lacks = state.missing;
      return new dev.srt.operator.host.HostCheck.Report(needed.stream().map(n -> lacks.contains(n.requirement().label())
          ? new dev.srt.operator.host.HostCheck.Finding(n, false, "not found on PATH")
          : new dev.srt.operator.host.HostCheck.Finding(n, true, "here")).toList());
    }

    @Override
    public String runDir(RunRef run) {
      return run.runDir("/work");
    }

    @Override
    public String describe() {
      return "fake host";
    }

    @Override
    public dev.srt.operator.api.Mode mode() {
      return dev.srt.operator.api.Mode.SLURM;
    }

    @Override
    public void close() {}

    private void check() throws HostException {
      if (state.unreachable) {
        throw new HostException(HostException.Kind.UNREACHABLE, "fake host: connection refused");
      }
    }
  }
}
