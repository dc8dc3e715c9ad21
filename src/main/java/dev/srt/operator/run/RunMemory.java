package dev.srt.operator.run;

import java.time.Instant;

/**
 * What a driver of {@link RunTracker} remembers of a run between two looks at it, beyond what the
 * host says: when its job was last seen, when a cancel was sent, how reading its results went,
 * whether its leftovers were reaped. Immutable; a driver keeps the newest one per run. A driver that
 * starts afresh ({@code report}, a restarted operator) starts from {@link #FRESH}: the tracker then
 * falls back on what the run itself says (its submission, its last event).
 *
 * @param jobSeenAt the last look that found the run's job on the host; null when none did
 * @param cancelSentAt when this driver sent a cancel for the run; null when none was sent
 * @param cancelFailure why the last cancel failed, or null
 * @param resultReadFailures how often reading the result files failed (host trouble)
 * @param resultReadError the last such failure
 * @param reap null before a reap; "" once leftovers were stopped; else why stopping them failed
 */
public record RunMemory(Instant jobSeenAt, Instant cancelSentAt, String cancelFailure, int resultReadFailures,
    String resultReadError, String reap) {
  public static final RunMemory FRESH = new RunMemory(null, null, null, 0, null, null);

  /** A cancel was sent ({@code failure} null) or tried and failed. */
  public RunMemory cancelSent(Instant at, String failure) {
    return new RunMemory(jobSeenAt, cancelSentAt == null ? at : cancelSentAt, failure, resultReadFailures, resultReadError, reap);
  }

  public RunMemory resultReadFailed(String error) {
    return new RunMemory(jobSeenAt, cancelSentAt, cancelFailure, resultReadFailures + 1, error, reap);
  }

  /** The run's leftovers were stopped ({@code failure} null) or could not be. */
  public RunMemory reaped(String failure) {
    return new RunMemory(jobSeenAt, cancelSentAt, cancelFailure, resultReadFailures, resultReadError,
        failure == null ? "" : failure);
  }

  RunMemory jobSeen(Instant at) {
    return new RunMemory(at, cancelSentAt, cancelFailure, resultReadFailures, resultReadError, reap);
  }
}
