package dev.srt.operator.host;

/** Where a run's job is, in Slurm's words, for both backends. */
public enum JobState {
  /** Queued, or allocated and being set up (Slurm CONFIGURING, REQUEUED, held). */
  PENDING(false),
  /** The script runs (also Slurm COMPLETING, SUSPENDED: not over yet). */
  RUNNING(false),
  COMPLETED(true),
  FAILED(true),
  CANCELLED(true),
  /** Time limit or deadline reached. */
  TIMEOUT(true),
  /** A node failed (also Slurm BOOT_FAIL). */
  NODE_FAIL(true),
  OUT_OF_MEMORY(true),
  PREEMPTED(true),
  /**
   * The host knows no such job: never submitted, or forgotten since (Slurm purges finished jobs
   * after MinJobAge). Not terminal by itself: the caller knows whether the job once existed.
   */
  NOT_FOUND(false),
  /** The host's answer could not be understood (e.g. a state newer than this code). */
  UNKNOWN(false);

  private final boolean terminal;

  JobState(boolean terminal) {
    this.terminal = terminal;
  }

  /** The job is over and will not change state again. */
  public boolean terminal() {
    return terminal;
  }
}
