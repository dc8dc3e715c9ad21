package dev.srt.operator.run;

import dev.srt.operator.api.Mode;
import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.HostCheck;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.HostProbe;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.results.RunResults;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.host.SubmittedFiles;
import dev.srt.operator.plan.Prerequisites;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The GPU host of one GpuCluster as the reconcilers see it. Production uses {@link BackendRunHost}
 * (SSH or local, Slurm or direct); tests use a fake whose failures can be injected.
 */
public interface RunHost extends AutoCloseable {
  /**
   * Submits the run's script unless the run already has a job (idempotent); {@code secrets} become
   * the run directory's secret.env before the job starts.
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

  /** Stops the run's job; "already gone" is success (idempotent). */
  void cancel(RunRef run, String jobId) throws HostException;

  /** Job states and new events of all given runs, in one remote command. */
  Map<RunRef, RunObservation> poll(Collection<ActiveRun> runs) throws HostException;

  /**
   * The numbers of a finished run, read from its result files (one remote command per results
   * directory: the run's, or each level of its ladder that {@code reading} names), with its facts;
   * a file problem is part of the answer, not an exception.
   */
  RunResults results(RunRef run, RunTracker.Reading reading) throws HostException;

  /**
   * The {@code perArm} newest runs of each arm of a comparison on the host, oldest first, with the
   * job ids their submitters recorded (one command); arms without any run are missing.
   */
  Map<String, List<LatestRuns.Found>> latestRuns(String namespace, String comparison, List<String> arms, int perArm)
      throws HostException;

  /** What was submitted for each run: its plan.json and record.json, as the host has them (one command). */
  Map<RunRef, SubmittedFiles> submitted(Collection<RunRef> runs) throws HostException;

  /** Facts about the host (Slurm version, partitions, GPUs). */
  HostProbe.Facts probe() throws HostException;

  /** Whether the host runs Slurm jobs or direct scripts. */
  Mode mode();


  /**
   * Whether {@link #check} looks at a real host; a test's fake host does not, and then nothing
   * waits for a prerequisite check.
   */
  default boolean checksPrerequisites() {
    return false;
  }

  /**
   * Looks for {@code needed} on the host in one remote command, with the cluster's {@code path}
   * and {@code env} as the runs have them.
   */
  default HostCheck.Report check(List<Prerequisites.Needed> needed, List<String> path, Map<String, String> env)
      throws HostException {
    throw new UnsupportedOperationException(describe() + " cannot check prerequisites");
  }

  /** The run directory of a run on the host. */
  String runDir(RunRef run);

  /** For logs and status messages; never contains key material. */
  String describe();

  /**
   * Whether {@link #close()} was called: the connection was replaced (the cluster's spec or its
   * Secret changed), so what fails on it says nothing about the cluster.
   */
  default boolean isClosed() {
    return false;
  }

  @Override
  void close();
}
