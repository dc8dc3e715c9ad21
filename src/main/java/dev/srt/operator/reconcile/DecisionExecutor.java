package dev.srt.operator.reconcile;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.reconcile.HostActions.Kind;
import java.util.List;

/**
 * Performs what a reconcile decided, in the order decided: cancels and submits on
 * {@link HostActions}' threads (never the reconcile thread), the poller's watch list, the host
 * actions' outcomes that were acted on, and the events.
 */
final class DecisionExecutor {
  private final RunObservations observations;
  private final HostActions actions;
  private final EventRecorder events;

  DecisionExecutor(RunObservations observations, HostActions actions, EventRecorder events) {
    this.observations = observations;
    this.actions = actions;
    this.events = events;
  }

  /**
   * Performs {@code acts} for comparison {@code rc}. Returns whether a cancel or submit it asked
   * for has ended already (an executor that runs them in the caller, or a host that answered at
   * once): the reconcile then decides again from their outcomes.
   */
  boolean perform(RouterComparison rc, List<Act> acts) {
    boolean ended = false;
    for (Act act : acts) {
      if (act instanceof Act.Track t) {
        observations.track(t.owner(), t.cluster(), t.host(), t.run(), t.record(), t.interval());
      } else if (act instanceof Act.Untrack u) {
        observations.untrack(u.run());
      } else if (act instanceof Act.Cancel c) {
        observations.cancelling(c.run());
        actions.request(c.owner(), c.run(), Kind.CANCEL, c.reason(), () -> {
          c.host().cancel(c.run(), c.jobId());
          return null;
        });
        ended |= actions.outcome(c.run(), Kind.CANCEL) != null;
      } else if (act instanceof Act.Submit s) {
        actions.request(s.owner(), s.run(), Kind.SUBMIT, s.call());
        ended |= actions.outcome(s.run(), Kind.SUBMIT) != null;
      } else if (act instanceof Act.Forget f) {
        actions.forget(f.run(), f.kind());
      } else if (act instanceof Act.Event e) {
        events.record(rc, e.reason(), e.arm(), e.message());
      }
    }
    return ended;
  }
}
