package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunTracker;
import java.util.Map;

/**
 * What one reconcile saw, fixed once taken: the poller's newest step of each in-flight arm's run
 * (by arm) and the comparison's host actions, running or ended. The scheduler decides from it.
 */
record Observation(Map<String, RunTracker.Step> steps, HostActions.Snapshot actions) {
  Observation {
    steps = Map.copyOf(steps);
  }
}
