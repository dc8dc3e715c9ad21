package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import dev.srt.operator.render.Scripts;
import dev.srt.operator.run.ArmPhase;
import dev.srt.operator.run.ArmProgress;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.Runs;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Duration;
import java.util.ArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what runs: cancels the runs that must stop (arm removed or changed, suspend, rerun) and
 * starts the next pending arm, one step per reconcile (first the run id is recorded, then it is
 * submitted), in the comparison's turn on a shared direct host.
 */
final class ArmScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(ArmScheduler.class);

  private final KubernetesClient client;
  private final RunObservations observations;
  private final ClusterQueue queue;
  private final SecretEnvResolver secretEnv;
  private final EventRecorder events;

  ArmScheduler(KubernetesClient client, RunObservations observations, ClusterQueue queue, EventRecorder events) {
    this.client = client;
    this.observations = observations;
    this.queue = queue;
    this.secretEnv = new SecretEnvResolver(client);
    this.events = events;
  }

  /** The comparison needs its host no more (deleted): the next in line may start. */
  void leave(ResourceID id) {
    queue.leave(id);
  }

  /** Cancels runs that must stop: suspended, rerun requested, spec changed, or arm removed. */
  void cancelWhatMustStop(ComparisonState s) {
    boolean suspended = s.rc.getSpec() != null && s.rc.getSpec().suspended();
    for (ArmStatus a : new ArrayList<>(s.arms.values())) {
      if (ArmPhase.of(a.phase) == ArmPhase.Cancelled && RouterComparisonReconciler.ARM_REMOVED.equals(a.reason)) {
        continue; // reported already; kept in status until the spec changes again
      }
      String reason = null;
      String why = null;
      if (!s.specHasArm(a.name)) {
        reason = RouterComparisonReconciler.ARM_REMOVED;
        why = "the arm was removed from the spec";
      } else if (suspended) {
        reason = "Suspended";
        why = "spec.suspend is true";
      } else if (s.rerun) {
        reason = "RerunRequested";
        why = "a rerun was requested";
      } else if (s.specErrors.isEmpty() && s.cluster != null && a.specHash != null && !a.specHash.equals(s.specHash(a.name))) {
        reason = "SpecChanged";
        why = "the arm's spec changed";
      }
      if (why == null) {
        continue;
      }
      String runId = a.runId;
      boolean hadRun = ArmPhase.of(a.phase).inFlight() || (ArmPhase.of(a.phase) == ArmPhase.Pending && a.runId != null);
      if (hadRun) {
        if (s.host == null) {
          a.message = "cannot cancel yet (" + why + "): cluster unreachable";
          continue;
        }
        try {
          s.host.cancel(s.ref(a), a.jobId);
          observations.untrack(s.ref(a));
          LOG.info("{} arm {}: cancelled run {} because {}", s.who, a.name, a.runId, why);
          events.record(s.rc, EventReason.Cancelled, a.name, "arm " + a.name + ": run " + runId + " cancelled (" + reason + "): " + why);
        } catch (HostException e) {
          a.message = "cancel failed (" + why + "): " + e.getMessage();
          LOG.warn("{} arm {}: cancel failed: {}", s.who, a.name, e.getMessage());
          continue;
        }
      }
      if (!s.specHasArm(a.name)) {
        if (hadRun) {
          a.phase = ArmPhase.Cancelled.name();
          a.reason = RouterComparisonReconciler.ARM_REMOVED;
          a.finishedAt = s.now.toString();
          a.message = "cancelled: " + why;
        } else {
          s.arms.remove(a.name);
        }
      } else if (!suspended) {
        ArmStatus next = ComparisonState.pending(a.name);
        if (hadRun) {
          next.reason = reason;
          next.message = "run " + runId + " cancelled: " + why;
        }
        s.arms.put(a.name, next);
      } else if (hadRun) {
        a.phase = ArmPhase.Cancelled.name();
        a.reason = reason;
        a.finishedAt = s.now.toString();
        a.message = "cancelled: " + why;
      }
    }
    if (!suspended) {
      // A run the operator cancelled (suspend) runs again once nothing holds it; one whose job the
      // host ended (scancel, time limit, node failure) is Failed instead (ArmProgress).
      // Its finished runs stay: the cancelled one is made again.
      s.arms.replaceAll((n, a) -> {
        if (ArmPhase.of(a.phase) != ArmPhase.Cancelled || RouterComparisonReconciler.ARM_REMOVED.equals(a.reason)) {
          return a;
        }
        ArmStatus again = ComparisonState.pending(n);
        ArmRuns.carry(a, again);
        return again;
      });
    }
  }


  /** Records a run id, then submits: one step per reconcile, so a restart never submits twice. */
  Duration submitNext(ComparisonState s) {
    boolean inFlight = s.arms.values().stream().anyMatch(a -> ArmPhase.of(a.phase).inFlight());
    if (!s.specErrors.isEmpty() || (s.rc.getSpec() != null && s.rc.getSpec().suspended())) {
      if (!inFlight) {
        queue.leave(s.id);
      }
      return null;
    }
    if (s.host == null) {
      return Duration.ofSeconds(15);
    }
    // A run id is only recorded in the comparison's turn: one recorded and not yet submitted still
    // holds the host after a restart, when the queue (in memory) starts empty.
    boolean hasTurn = inFlight || s.arms.values().stream().anyMatch(a -> ArmPhase.of(a.phase) == ArmPhase.Pending && a.runId != null);
    ClusterQueue.Place place = s.sharedHost() ? queue.want(s.clusterKey(), s.id, s.arrival(), hasTurn) : new ClusterQueue.Place(0, null);
    if (inFlight) {
      return Duration.ofMinutes(5);
    }
    if (s.clusterDeleting) {
      queue.leave(s.id);
      s.clusterState = new ClusterState(false, "ClusterDeleting", "GpuCluster " + s.cluster.getMetadata().getName()
          + " is being deleted: no new run starts on it");
      return null;
    }
    // A run whose id is recorded but not yet submitted goes first (the operator may have restarted
    // in between); else the next run of the schedule.
    ArmStatus next = s.arms.values().stream().filter(a -> ArmPhase.of(a.phase) == ArmPhase.Pending && a.runId != null
        && s.specHasArm(a.name)).findFirst().orElse(null);
    Runs.Slot slot = next != null ? null : Runs.next(s.schedule(), arm -> ArmRuns.finished(s.arms.get(arm)));
    if (next == null && slot == null) {
      queue.leave(s.id);
      return null;
    }
    if (s.prerequisites != null && !Boolean.TRUE.equals(s.prerequisites.met())) {
      // Nothing is submitted to a host that lacks what the plans need; meanwhile another may use it.
      if (!hasTurn) {
        queue.leave(s.id);
      }
      return ComparisonPreflight.EVERY; // or sooner: woken when a check ends or the spec or cluster changes
    }
    if (!place.mayStart()) {
      // Woken by the queue when the comparison ahead leaves it.
      s.queued = new StatusAggregator.Queued(place.position(), place.holder().getNamespace().orElse("") + "/"
          + place.holder().getName(), s.cluster.getMetadata().getName());
      return null;
    }
    if (next == null) {
      // The arm's finished runs stay; the rest of its status is the new run's.
      ArmStatus previous = s.arms.get(slot.arm());
      if (previous != null && ArmPhase.of(previous.phase) == ArmPhase.Pending) {
        next = previous; // keeps why it is pending again (a cancelled run's reason)
      } else {
        next = ComparisonState.pending(slot.arm());
        if (previous != null) {
          ArmRuns.carry(previous, next);
        }
      }
      next.repetition = slot.repetition();
      next.runId = Runs.newRunId();
      next.specHash = s.specHash(next.name);
      next.message = "submitting run " + next.runId + (Runs.repetitions(s.rc.getSpec()) > 1
          ? " (repetition " + slot.repetition() + " of " + Runs.repetitions(s.rc.getSpec()) + ")" : "");
      s.arms.put(next.name, next);
      return Duration.ofMillis(100);
    }
    RunRef ref = s.ref(next);
    try {
      RunPlan plan = s.planFor(next.name);
      SecretEnvFile secrets = secretEnv.resolve(s.rc, s.cluster);
      String script = Scripts.render(plan);
      String scriptHash = "sha256:" + Hashes.sha256(script);
      String planJson = plan.json();
      ScriptConfigMaps.store(client, s.rc, next.name, next.runId, Scripts.fileName(plan), script, scriptHash, planJson);
      Submission sub = s.host.submit(ref, new RunFiles(script, planJson, secrets));
      ArmStatus submitted = ArmProgress.submitted(next.name, next.runId, sub.jobId(), s.host.runDir(ref), scriptHash,
          next.specHash, plan, s.now);
      ArmRuns.carry(next, submitted);
      if (sub.alreadyExisted()) {
        submitted.message = "found the run's existing job " + sub.jobId();
      }
      s.arms.put(next.name, submitted);
      observations.track(s.id, s.clusterKey(), s.host, ref, sub.jobId(), s.pollInterval());
      LOG.info("{} arm {}: run {} submitted as job {}{}", s.who, next.name, next.runId, sub.jobId(),
          sub.alreadyExisted() ? " (found, not resubmitted)" : "");
      return Duration.ofMinutes(5);
    } catch (ScriptConfigMaps.NotOwnedException e) {
      // Someone else's ConfigMap has the script's name: nothing is submitted until it is gone.
      next.message = "not submitted: " + e.getMessage();
      LOG.warn("{} arm {}: {}", s.who, next.name, e.getMessage());
      return Duration.ofMinutes(1);
    } catch (HostException e) {
      s.clusterState = new ClusterState(false, "Unreachable", e.getMessage());
      next.message = "submit failed, will retry: " + e.getMessage();
      LOG.warn("{} arm {}: submit failed: {}", s.who, next.name, e.getMessage());
      return Duration.ofSeconds(15);
    } catch (SecretEnvResolver.Unresolved e) {
      s.secretEnvProblem = e.getMessage();
      next.message = "not submitted: " + e.getMessage();
      LOG.warn("{} arm {}: not submitted: {}", s.who, next.name, e.getMessage());
      return Duration.ofSeconds(30);
    }
  }

}
