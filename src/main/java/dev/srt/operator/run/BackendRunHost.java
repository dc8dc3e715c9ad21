package dev.srt.operator.run;

import dev.srt.operator.host.Transport;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.Mode;
import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.ClusterObserver;
import dev.srt.operator.host.HostCheck;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.HostProbe;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.ResultsFetch;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.results.RunResults;
import dev.srt.operator.host.Submission;
import java.time.Duration;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.host.SubmittedFiles;
import java.util.Collection;
import java.util.LinkedHashMap;
import dev.srt.operator.plan.Prerequisites;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The {@link RunHost} of a {@link Backend} (SSH or local, Slurm or direct), used by the CLI and the
 * operator alike; every remote execution is reported to a {@link Calls} listener (the operator's
 * /metrics).
 */
public final class BackendRunHost implements RunHost {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  /** Hears of every remote execution once it is over. */
  public interface Calls {
    Calls NONE = (operation, failure, took) -> { };

    /** {@code failure} is null when the call succeeded. */
    void finished(String operation, HostException.Kind failure, Duration took);
  }

  private final Backend backend;
  private final Mode mode;
  private final ClusterObserver observer;
  private final Calls calls;
  private volatile boolean closed;

  /** The host of a GpuCluster of spec {@code cluster}, reached through {@code transport}. */
  public static BackendRunHost of(GpuClusterSpec cluster, Transport transport, Calls calls) {
    return new BackendRunHost(Backend.forMode(cluster.mode(), transport, cluster.workDir), cluster.mode(), calls);
  }

  public BackendRunHost(Backend backend, Mode mode) {
    this(backend, mode, Calls.NONE);
  }

  public BackendRunHost(Backend backend, Mode mode, Calls calls) {
    this.backend = backend;
    this.mode = mode;
    this.observer = new ClusterObserver(backend);
    this.calls = calls;
  }

  public Backend backend() {
    return backend;
  }

  @Override
  public Submission submit(RunRef run, RunFiles files) throws HostException {
    return timed("submit", () -> backend.submit(run, files));
  }

  @Override
  public void cancel(RunRef run, String jobId) throws HostException {
    timed("cancel", () -> {
      backend.cancel(run, jobId);
      return null;
    });
  }

  @Override
  public Map<RunRef, RunObservation> poll(Collection<ActiveRun> runs) throws HostException {
    return timed("poll", () -> observer.poll(runs));
  }

  @Override
  public RunResults results(RunRef run, RunTracker.Reading reading) throws HostException {
    return timed("results", () -> reading.levels().isEmpty() ? ResultsFetch.read(backend, run, RunResults.RESULTS, reading.slo())
        : ResultsFetch.readLevels(backend, run, reading.levels(), reading.slo()));
  }

  @Override
  public Map<String, List<LatestRuns.Found>> latestRuns(String namespace, String comparison, List<String> arms, int perArm)
      throws HostException {
    return timed("list", () -> LatestRuns.find(backend, namespace, comparison, arms, perArm));
  }

  @Override
  public Map<RunRef, SubmittedFiles> submitted(Collection<RunRef> runs) throws HostException {
    Map<RunRef, String> dirs = new LinkedHashMap<>();
    runs.forEach(r -> dirs.put(r, runDir(r)));
    return timed("records", () -> SubmittedFiles.read(backend.transport(), dirs));
  }

  @Override
  public HostProbe.Facts probe() throws HostException {
    return timed("probe", () -> HostProbe.probe(backend.transport(), mode, PROBE_TIMEOUT));
  }

  @Override
  public Mode mode() {
    return mode;
  }

  @Override
  public boolean checksPrerequisites() {
    return true;
  }

  @Override
  public HostCheck.Report check(List<Prerequisites.Needed> needed, List<String> path, Map<String, String> env)
      throws HostException {
    return timed("check", () -> HostCheck.run(backend.transport(), needed, path, env));
  }

  @Override
  public String runDir(RunRef run) {
    return backend.runDirectory(run).path();
  }

  @Override
  public String describe() {
    return backend.transport().describe();
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
    backend.transport().close();
  }

  private interface HostCall<T> {
    T call() throws HostException;
  }

  private <T> T timed(String operation, HostCall<T> call) throws HostException {
    long start = System.nanoTime();
    HostException.Kind failure = null;
    try {
      return call.call();
    } catch (HostException e) {
      failure = e.kind();
      throw e;
    } finally {
      calls.finished(operation, failure, Duration.ofNanos(System.nanoTime() - start));
    }
  }
}
