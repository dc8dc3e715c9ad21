package dev.srt.operator.host;

import java.util.Objects;

/**
 * A job's state as last seen on the host.
 *
 * @param reason why it is in that state, when the host says (Slurm's pending reason such as
 *     {@code Resources}, the raw Slurm state when it was folded into a broader one, an error)
 * @param exitCode the script's exit status once known; a death by signal N is {@code 128 + N}
 */
public record JobStatus(JobState state, String reason, Integer exitCode) {

  public JobStatus {
    Objects.requireNonNull(state, "state");
  }

  public static JobStatus of(JobState state) {
    return new JobStatus(state, null, null);
  }

  public boolean terminal() {
    return state.terminal();
  }
}
