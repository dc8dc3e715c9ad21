package dev.srt.operator.host;

import dev.srt.operator.api.Mode;
import java.util.List;

/**
 * Submits, cancels and finds runs on a host, through a {@link Transport}. Both operations are
 * idempotent, so a caller that lost track (operator restart, dropped connection) simply repeats
 * them.
 */
public interface Backend {

  /** Where commands run. */
  Transport transport();

  /** The run's directory on the host. */
  RunDirectory runDirectory(RunRef run);

  /**
   * Starts {@code script} as the run's job, unless the run already has one: then that job is
   * returned with {@link Submission#alreadyExisted()} set, and nothing is written or started.
   * Before the job starts, the files' secrets (unless empty) become the run directory's
   * {@code secret.env} (mode 0600) and its plan {@code plan.json}, each sent on a command's stdin.
   */
  Submission submit(RunRef run, RunFiles files) throws HostException;

  /** {@link #submit(RunRef, RunFiles)} of a script with secret variables and no plan. */
  default Submission submit(RunRef run, String script, SecretEnvFile secrets) throws HostException {
    return submit(run, new RunFiles(script, null, secrets));
  }

  /** {@link #submit(RunRef, RunFiles)} of a script alone. */
  default Submission submit(RunRef run, String script) throws HostException {
    return submit(run, RunFiles.script(script));
  }

  /**
   * Stops the run's job; a job that is already gone counts as stopped.
   *
   * @param jobId the job id from {@link #submit}, or null to use the one recorded in the run directory
   */
  void cancel(RunRef run, String jobId) throws HostException;

  /** How the {@link ClusterObserver} reads this backend's job state. */
  JobProbe jobProbe();

  /** The state of one run's job (one remote command; the observer batches many runs into one). */
  default JobStatus status(RunRef run, String jobId) throws HostException {
    return new ClusterObserver(this).poll(List.of(ActiveRun.statusOnly(run, jobId))).get(run).job();
  }

  /**
   * The backend for a GpuCluster's {@code mode}.
   *
   * @param workDir absolute directory on the host that holds the run directories
   */
  static Backend forMode(Mode mode, Transport transport, String workDir) {
    return switch (mode) {
      case SLURM -> new SlurmBackend(transport, workDir);
      case DIRECT -> new DirectBackend(transport, workDir);
    };
  }
}
