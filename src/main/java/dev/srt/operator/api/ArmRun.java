package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** One finished run of an arm: kept for the arm's summary and the verdicts, without its endpoints. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ArmRun {
  /** Id of the run (names its run directory and job). */
  public String runId;

  /** Which repetition of the arm this run was, from 1. */
  public Integer repetition;

  /** Succeeded or Failed. */
  public String phase;

  /** {@link #phase}, parsed; Pending when there is none yet. */
  public ArmPhase phase() {
    return ArmPhase.of(phase);
  }

  public void phase(ArmPhase p) {
    phase = p == null ? null : p.name();
  }

  /** Slurm job id, or the process-group id of the script on a direct host. */
  public String jobId;

  /** Run directory on the host. */
  public String runDir;

  /** When the run was submitted. */
  public String startedAt;

  /** When the run ended. */
  public String finishedAt;

  /** Why a run failed, or why a succeeded one has no results. */
  public String message;

  /** The run's headline numbers (a succeeded run's); a run over a load ladder has levels instead. */
  public BenchmarkResults results;

  /**
   * A run over a load ladder (spec.workload.load): each level it finished, in ascending load. A run
   * that failed mid-sweep keeps the levels it finished.
   */
  public List<LevelResults> levels;

  /** {@link #levels} as the operator's status keeps them (the metrics its verdicts need, as a table). */
  public LevelTable levelTable;

  /**
   * What the run recorded about itself before its benchmark (facts.json): in full in reports, as
   * digests and counts in the operator's status.
   */
  public RunFacts facts;
}
