package dev.srt.operator.reconcile;

import dev.srt.operator.host.RunRef;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.run.RunRecord;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Duration;

/**
 * One thing a reconcile decided to do, which the {@link DecisionExecutor} performs after the
 * decisions are made: host calls go to {@link HostActions}' threads, the rest is bookkeeping of
 * the poller, the host actions and the events.
 */
sealed interface Act {
  /** Watch the run (again: the poller ignores a run it already watches). */
  record Track(ResourceID owner, String cluster, RunHost host, RunRef run, RunRecord record, Duration interval) implements Act {}

  /** Stop watching the run and forget what was seen of it. */
  record Untrack(RunRef run) implements Act {}

  /**
   * Cancel the run's job on the host, off the reconcile thread, because of {@code reason} (null:
   * the comparison is being deleted); the poller is told first, so it does not call the run failed.
   */
  record Cancel(ResourceID owner, RunRef run, RunHost host, String jobId, CancelReason reason) implements Act {}

  /** Submit the run, off the reconcile thread. */
  record Submit(ResourceID owner, RunRef run, HostActions.Call call) implements Act {}

  /** The outcome of a host action was acted on: a new request starts it again. */
  record Forget(RunRef run, HostActions.Kind kind) implements Act {}

  /** An event on the comparison, for arm {@code arm} (null: the comparison's). */
  record Event(EventReason reason, String arm, String message) implements Act {}
}
