package dev.srt.operator.host;

import java.util.Objects;

/**
 * A job's state as last seen on the host.
 *
 * @param reason why it is in that state, when the host says (Slurm's pending reason such as
 *     {@code Resources}, the raw Slurm state when it was folded into a broader one, an error)
 * @param exitCode the script's exit status once known; a death by signal N is {@code 128 + N}
 * @param cancelRequested the run's {@code cancel-requested} marker exists: srt-operator cancelled
 *     it. A job ended by anyone or anything else (an outside {@code scancel}, a time limit, a
 *     failed node) has none, although its script, signalled alike, reports itself cancelled.
 */
public record JobStatus(JobState state, String reason, Integer exitCode, boolean cancelRequested) {

  public JobStatus {
    Objects.requireNonNull(state, "state");
  }

  public JobStatus(JobState state, String reason, Integer exitCode) {
    this(state, reason, exitCode, false);
  }

  public JobStatus withCancelRequested(boolean requested) {
    return new JobStatus(state, reason, exitCode, requested);
  }

  public static JobStatus of(JobState state) {
    return new JobStatus(state, null, null);
  }

  public boolean terminal() {
    return state.terminal();
  }
}
