package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.run.RunTracker;
import java.util.HashMap;
import java.util.Map;

/**
 * Takes what a reconcile decides from: the poller's newest step of each in-flight arm's run, which
 * replays the run against its record ({@link RunTracker}), never against today's spec (the arm may
 * have changed, left the spec, or the spec may no longer be valid), and the comparison's host
 * actions. It reads and changes nothing.
 */
final class ArmObserver {
  private final RunObservations observations;
  private final HostActions actions;

  ArmObserver(RunObservations observations, HostActions actions) {
    this.observations = observations;
    this.actions = actions;
  }

  Observation observe(ComparisonState s, Map<String, ArmStatus> arms) {
    Map<String, RunTracker.Step> steps = new HashMap<>();
    for (ArmStatus a : arms.values()) {
      if (a.phase().inFlight() && a.runId != null) {
        observations.latest(s.ref(a)).ifPresent(step -> steps.put(a.name, step));
      }
    }
    return new Observation(steps, actions.snapshot(s.ns, s.name));
  }
}
