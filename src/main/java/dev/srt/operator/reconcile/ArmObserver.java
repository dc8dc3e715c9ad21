package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.run.ArmPhase;
import dev.srt.operator.run.ArmProgress;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.RunRecord;
import dev.srt.operator.run.Runs;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings each in-flight arm's status up to date: the run's events and job state, from the poller,
 * replayed against the run's record. A run that ended without reporting an outcome is reaped.
 */
final class ArmObserver {
  private static final Logger LOG = LoggerFactory.getLogger(ArmObserver.class);

  private final RunObservations observations;

  ArmObserver(RunObservations observations) {
    this.observations = observations;
  }

  /** Replays each in-flight run's events into its status. */
  void observe(ComparisonState s) {
    for (ArmStatus a : s.arms.values()) {
      if (!ArmPhase.of(a.phase).inFlight() || a.runId == null) {
        continue;
      }
      RunRef ref = s.ref(a);
      if (s.host != null) {
        observations.track(s.id, s.clusterKey(), s.host, ref, a.jobId, s.pollInterval());
      }
      observations.view(ref).ifPresent(view -> {
        // Replayed against the run's record, never re-planned from today's spec: the arm may
        // have changed, left the spec, or the spec may no longer be valid (160000000 workers).
        ArmStatus fresh = ArmProgress.submitted(RunRecord.of(a));
        ArmRuns.carry(a, fresh);
        ArmProgress.apply(fresh, view.events(), view.job(), view.results(), s.now);
        if (!ArmPhase.of(fresh.phase).terminal() && view.job() != null && view.job().state() == JobState.NOT_FOUND
            && view.events().isEmpty() && Instant.parse(a.startedAt).plus(Runs.NOT_FOUND_GRACE).isBefore(s.now)) {
          fresh.phase = ArmPhase.Failed.name();
          fresh.finishedAt = s.now.toString();
          fresh.message = "job " + a.jobId + " is not known to the host";
        }
        s.arms.put(a.name, fresh);
        // A succeeded run is only seen once its results were read (or given up on).
        ArmRuns.record(fresh);
        if (ArmPhase.of(fresh.phase).terminal()) {
          if (!ArmProgress.reportedOutcome(view.events()) && s.host != null) {
            reap(s, ref, a.jobId);
          }
          observations.untrack(ref);
          LOG.info("{} arm {}: run {} {}", s.who, a.name, a.runId, fresh.phase);
        }
      });
    }
  }

  /** A run killed before its exit handler ran leaves processes behind (ports, GPUs, the host's lease). */
  void reap(ComparisonState s, RunRef ref, String jobId) {
    try {
      s.host.cancel(ref, jobId);
      LOG.info("{} arm {}: run {} ended without reporting an outcome; stopped what it left running", s.who, ref.arm(), ref.runId());
    } catch (HostException e) {
      LOG.warn("{} arm {}: cannot stop what run {} left running: {}", s.who, ref.arm(), ref.runId(), e.getMessage());
    }
  }
}
