package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class ArmStatus {
  /** Arm name, as in spec.arms. */
  public String name;

  /**
   * Pending, Submitted, Queued (waiting for the direct host's lease), Building, Starting, Ready,
   * Benchmarking, Succeeded, Failed or Cancelled.
   */
  public String phase;

  /** {@link #phase}, parsed; Pending when there is none yet. */
  public ArmPhase phase() {
    return ArmPhase.of(phase);
  }

  public void phase(ArmPhase p) {
    phase = p == null ? null : p.name();
  }

  /**
   * Why the run ended when the operator ended it, in CamelCase: ArmRemoved (the arm left the
   * spec), SpecChanged (its effective spec changed), Suspended, RerunRequested; why it failed when
   * the host ended its job: JobCancelled (cancelled outside srt-operator, e.g. scancel),
   * JobTimeLimit (Slurm TIMEOUT), NodeFailure (Slurm NODE_FAIL), OutOfMemory, JobPreempted (the
   * message then names the Slurm state), JobNotFound (the host forgot the job and the run reported
   * no outcome); or SubmitFailed.
   */
  public String reason;

  /** {@link #reason}, parsed; null when there is none or it is not one of srt-operator's. */
  public ArmReason reason() {
    if (reason == null) {
      return null;
    }
    try {
      return ArmReason.valueOf(reason);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  public void reason(ArmReason r) {
    reason = r == null ? null : r.name();
  }

  /** The readiness gates of the current run, in the order it passes them. */
  public List<String> gates = new ArrayList<>();

  /**
   * Which repetition of the arm the current run is, from 1 (see spec.execution.repetitions); the
   * runs before it are in runs.
   */
  public Integer repetition;

  /** Id of the current run of this arm (names its run directory and job). */
  public String runId;

  /** Slurm job id, or the process-group id of the script on a direct host. */
  public String jobId;

  /** SHA-256 of the rendered script of the current run. */
  public String scriptHash;

  /**
   * Hash of the effective spec (shared fields and this arm's fields) the run was rendered from; a
   * change reruns the arm.
   */
  public String specHash;

  /** Run directory on the host. */
  public String runDir;

  /** Workers whose /health answered 200, out of all workers. */
  public WorkerCount workers;

  /** Each worker endpoint and its readiness. */
  public List<EndpointStatus> endpoints = new ArrayList<>();

  /** The router and its readiness. */
  public RouterStatus router;

  /** When the run was submitted. */
  public String startedAt;

  /** When every worker and the router were ready. */
  public String readyAt;

  /** When the run ended. */
  public String finishedAt;

  /** Why the arm is in its phase (failure reason, pending reason). */
  public String message;

  /** Result files the benchmark wrote, relative to the run directory. */
  public List<String> resultFiles = new ArrayList<>();

  /** The current run's headline numbers, once it succeeded. */
  public BenchmarkResults results;

  /**
   * What the current run measures, as submitted: its load ladder and SLO; absent for one
   * measurement without an SLO.
   */
  public Measurement measurement;

  /** The level of the load ladder the current run is measuring, e.g. 3/5 (c=32). */
  public String level;

  /**
   * The levels of the load ladder the current run finished, once it ended: what each measured
   * (a run that failed mid-sweep keeps those it finished).
   */
  public List<LevelResults> levels;

  /** What the current run recorded about itself (facts.json), once it succeeded: digests and counts. */
  public RunFacts facts;

  /**
   * Every finished run of the arm for its current spec, in the order they ran: their results, not
   * their endpoints.
   */
  public List<ArmRun> runs = new ArrayList<>();

  /** The arm's succeeded runs summed up (mean, spread, 95% interval per metric). */
  public ArmSummary summary;

  /** Over a load ladder: the arm's succeeded runs summed up per level (means of the metrics kept). */
  public List<LevelSummary> levelSummaries;

  /**
   * Over a load ladder with an SLO: the highest load the arm sustains (goodput % at or above
   * spec.slo.attainment), the mean over its runs with its 95% interval.
   */
  public Capacity capacity;
}
