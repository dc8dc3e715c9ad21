package dev.srt.operator.host;

import java.util.Objects;

/**
 * A run to observe in one {@link ClusterObserver#poll}.
 *
 * @param jobId the submission's job id, or null to use the one recorded in the run directory
 * @param eventsOffset where to continue reading events.jsonl (the last {@link RunObservation#nextOffset()},
 *     0 at first), or {@link #STATUS_ONLY} to skip the events
 */
public record ActiveRun(RunRef run, String jobId, long eventsOffset) {
  public static final long STATUS_ONLY = -1;

  public ActiveRun {
    Objects.requireNonNull(run, "run");
    if (eventsOffset < STATUS_ONLY) {
      throw new IllegalArgumentException("eventsOffset must be >= 0 or STATUS_ONLY: " + eventsOffset);
    }
  }

  public static ActiveRun statusOnly(RunRef run, String jobId) {
    return new ActiveRun(run, jobId, STATUS_ONLY);
  }
}
