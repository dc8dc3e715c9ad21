package dev.srt.operator.run;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.api.Mode;
import dev.srt.operator.host.HostException;

/** The one mapping of a host's failure to the reason a condition shows, for polls, probes and submissions alike. */
public final class HostFailures {
  private HostFailures() {}

  public static ConditionReason reason(HostException.Kind kind, Mode mode) {
    return switch (kind) {
      case AUTH -> ConditionReason.AuthFailed;
      case HOST_KEY -> ConditionReason.HostKeyMismatch;
      case TIMEOUT -> ConditionReason.Timeout;
      case UNREACHABLE -> ConditionReason.Unreachable;
      // On a login node, the commands that fail are Slurm's (squeue, sbatch, sinfo).
      case COMMAND_FAILED -> mode == Mode.SLURM ? ConditionReason.SlurmUnavailable : ConditionReason.HostError;
      case IO -> ConditionReason.HostError;
    };
  }
}
