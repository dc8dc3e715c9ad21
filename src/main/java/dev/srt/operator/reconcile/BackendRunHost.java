package dev.srt.operator.reconcile;

import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.ClusterObserver;
import dev.srt.operator.host.HostCheck;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.HostProbe;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.RunResults;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import dev.srt.operator.plan.Prerequisites;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** A {@link RunHost} over a {@link Backend}, timing every remote execution for /metrics. */
public final class BackendRunHost implements RunHost {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  private final Backend backend;
  private final String mode;
  private final ClusterObserver observer;
  private final MeterRegistry metrics;
  private volatile boolean closed;

  public BackendRunHost(Backend backend, String mode, MeterRegistry metrics) {
    this.backend = backend;
    this.mode = mode;
    this.observer = new ClusterObserver(backend);
    this.metrics = metrics;
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
  public RunResults results(RunRef run) throws HostException {
    return timed("results", () -> RunResults.read(backend, run));
  }

  @Override
  public HostProbe.Facts probe() throws HostException {
    return timed("probe", () -> HostProbe.probe(backend.transport(), mode, PROBE_TIMEOUT));
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
    Timer.Sample sample = Timer.start(metrics);
    String outcome = "ok";
    try {
      return call.call();
    } catch (HostException e) {
      outcome = e.kind().name().toLowerCase();
      throw e;
    } finally {
      sample.stop(Timer.builder("srt_host_exec_seconds").description("Remote executions on GPU hosts")
          .tag("operation", operation).tag("outcome", outcome).register(metrics));
    }
  }
}
