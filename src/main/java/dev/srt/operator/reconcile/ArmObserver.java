package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.RunRecord;
import dev.srt.operator.run.RunTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings each in-flight arm's status up to date from the poller's newest step of its run, which
 * replays the run against its record ({@link RunTracker}), never against today's spec: the arm may
 * have changed, left the spec, or the spec may no longer be valid.
 */
final class ArmObserver {
  private static final Logger LOG = LoggerFactory.getLogger(ArmObserver.class);

  private final RunObservations observations;

  ArmObserver(RunObservations observations) {
    this.observations = observations;
  }

  /** Each in-flight run's newest status; a run that ended is recorded among its arm's runs and no longer watched. */
  void observe(ComparisonState s) {
    for (ArmStatus a : s.arms.values()) {
      if (!a.phase().inFlight() || a.runId == null) {
        continue;
      }
      RunRef ref = s.ref(a);
      if (s.host != null) {
        observations.track(s.id, s.clusterKey(), s.host, ref, RunRecord.of(a), s.pollInterval());
      }
      observations.latest(ref).ifPresent(step -> {
        ArmStatus fresh = ComparisonState.copy(step.status());
        ArmRuns.carry(a, fresh);
        s.arms.put(a.name, fresh);
        ArmRuns.record(fresh);
        if (step.ended()) {
          observations.untrack(ref);
          LOG.info("{} arm {}: run {} {}", s.who, a.name, a.runId, fresh.phase);
        }
      });
    }
  }
}
