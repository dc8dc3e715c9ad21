package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmReason;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.reconcile.HostActions.Kind;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.HostFailures;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.run.RunRecord;
import dev.srt.operator.run.RunTracker;
import dev.srt.operator.run.Runs;
import dev.srt.operator.run.Submissions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Duration;
import java.util.ArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, from what a reconcile loaded and observed, each arm's next status and what must be done:
 * it applies the runs' newest steps, cancels the runs that must stop (arm removed or changed,
 * suspend, rerun) and starts the next pending arm, in two steps (first a run id is chosen and
 * written, then that run is submitted), in the comparison's turn on a shared direct host. It calls
 * no host and changes nothing but the {@link Decisions} it returns: a host call is an {@link Act},
 * and an action that has not ended yet leaves the arm as it is ("cancelling", "submitting") until a
 * later reconcile observes its outcome.
 */
final class ArmScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(ArmScheduler.class);
  /** How long after a failed submit or cancel the next attempt is made. */
  static final Duration RETRY = Duration.ofSeconds(15);

  private final KubernetesClient client;
  private final ClusterQueue queue;
  private final SecretEnvResolver secretEnv;
  private final ComparisonPreflight preflight;

  ArmScheduler(KubernetesClient client, ClusterQueue queue, ComparisonPreflight preflight) {
    this.client = client;
    this.queue = queue;
    this.secretEnv = new SecretEnvResolver(client);
    this.preflight = preflight;
  }

  /**
   * The decisions of one pass of a reconcile, from what was loaded, what an earlier pass decided
   * ({@code before}; null in the first) and what was seen.
   */
  Decisions decide(ComparisonState s, Decisions before, Observation seen) {
    Decisions d = before == null ? Decisions.from(s) : Decisions.after(before);
    applyRuns(s, d, seen);
    cancelWhatMustStop(s, d, seen);
    d.prerequisites = preflight.assess(s, d.arms);
    submitNext(s, d, seen);
    return d;
  }

  /** Each in-flight run's newest status; a run that ended is recorded among its arm's runs and no longer watched. */
  private static void applyRuns(ComparisonState s, Decisions d, Observation seen) {
    for (ArmStatus a : new ArrayList<>(d.arms.values())) {
      if (!a.phase().inFlight() || a.runId == null) {
        continue;
      }
      RunRef ref = s.ref(a);
      if (s.host != null) {
        d.act(new Act.Track(s.id, s.clusterKey(), s.host, ref, RunRecord.of(a), s.pollInterval()));
      }
      RunTracker.Step step = seen.steps().get(a.name);
      if (step == null) {
        continue;
      }
      if (step.ended() && cancelling(ref, seen)) {
        if (stopReason(s, d, a, seen) != null) {
          // A run this operator is cancelling ends by that cancel: its outcome, not the poller's
          // sight of the job's end (which may come first), says why (SpecChanged, ArmRemoved, ...).
          continue;
        }
        d.act(new Act.Forget(ref, Kind.CANCEL)); // asked without a reason (the comparison's deletion)
      }
      ArmStatus fresh = ComparisonState.copy(step.status());
      ArmRuns.carry(a, fresh);
      d.arms.put(a.name, fresh);
      ArmRuns.record(fresh);
      if (step.ended()) {
        d.act(new Act.Untrack(ref));
        LOG.info("{} arm {}: run {} {}", s.who, a.name, a.runId, fresh.phase);
      }
    }
  }

  /** A cancel of {@code ref} is running, or ended well and is not applied yet. */
  private static boolean cancelling(RunRef ref, Observation seen) {
    HostActions.Outcome cancel = seen.actions().outcome(ref, Kind.CANCEL);
    return seen.actions().running(ref, Kind.CANCEL) || (cancel != null && cancel.ok());
  }

  /** The comparison needs its host no more (deleted): the next in line may start. */
  void leave(ResourceID id) {
    queue.leave(id);
  }

  /**
   * Cancels runs that must stop: suspended, rerun requested, spec changed, or arm removed. Returns
   * when to look again while a cancel failed (null: when an action ends or something changes).
   */
  private static void cancelWhatMustStop(ComparisonState s, Decisions d, Observation seen) {
    boolean suspended = s.rc.getSpec() != null && s.rc.getSpec().suspended();
    for (ArmStatus a : new ArrayList<>(d.arms.values())) {
      if (a.phase() == ArmPhase.Cancelled && a.reason() == ArmReason.ArmRemoved) {
        continue; // reported already; kept in status until the spec changes again
      }
      CancelReason stop = stopReason(s, d, a, seen);
      if (stop == null) {
        continue;
      }
      ArmReason reason = stop.reason();
      String why = stop.why();
      String runId = a.runId;
      boolean hadRun = ArmRuns.holdsHost(a);
      if (hadRun) {
        if (s.host == null) {
          a.message = "cannot cancel yet (" + why + "): cluster unreachable";
          continue;
        }
        RunRef ref = s.ref(a);
        if (seen.actions().running(ref, Kind.SUBMIT)) {
          // A cancel that overtook its submission would let the job start after it.
          a.message = "waiting for run " + runId + "'s submission to end before cancelling it (" + why + ")";
          continue;
        }
        if (d.failed.containsKey(new HostActions.Key(ref, Kind.CANCEL))) {
          d.lookAgainWithin(RETRY); // failed in an earlier pass of this reconcile: its message stays
          continue;
        }
        HostActions.Outcome cancelled = seen.actions().outcome(ref, Kind.CANCEL);
        if (cancelled == null) {
          if (!seen.actions().running(ref, Kind.CANCEL)) {
            d.act(new Act.Cancel(s.id, ref, s.host, a.jobId, stop));
          }
          a.message = "cancelling run " + runId + " (" + why + ")";
          continue;
        }
        d.act(new Act.Forget(ref, Kind.CANCEL));
        if (!cancelled.ok()) {
          // Asked again by the next reconcile, woken after RETRY.
          a.message = "cancel failed (" + why + "), will retry: " + cancelled.failure().getMessage();
          LOG.warn("{} arm {}: cancel failed: {}", s.who, a.name, cancelled.failure().getMessage());
          d.failed.put(new HostActions.Key(ref, Kind.CANCEL), RETRY);
          d.lookAgainWithin(RETRY);
          continue;
        }
        d.act(new Act.Untrack(ref));
        d.act(new Act.Forget(ref, Kind.SUBMIT));
        LOG.info("{} arm {}: cancelled run {} because {}", s.who, a.name, runId, why);
        d.act(new Act.Event(EventReason.Cancelled, a.name, "arm " + a.name + ": run " + runId + " cancelled (" + reason + "): " + why));
      }
      if (!s.specHasArm(a.name)) {
        if (hadRun) {
          end(s, a, ArmPhase.Cancelled, reason, "cancelled: " + why);
        } else {
          d.arms.remove(a.name);
        }
      } else if (!suspended) {
        ArmStatus next = ComparisonState.pending(a.name);
        if (hadRun) {
          next.reason(reason);
          next.message = "run " + runId + " cancelled: " + why;
        }
        d.arms.put(a.name, next);
        if (reason == ArmReason.RerunRequested) {
          d.rerunDone.add(a.name);
        }
      } else if (hadRun) {
        end(s, a, ArmPhase.Cancelled, reason, "cancelled: " + why);
      }
    }
    if (!suspended) {
      // A run the operator cancelled (suspend) runs again once nothing holds it; one whose job the
      // host ended (scancel, time limit, node failure) is Failed instead (RunTracker).
      // Its finished runs stay: the cancelled one is made again.
      d.arms.replaceAll((n, a) -> {
        if (a.phase() != ArmPhase.Cancelled || a.reason() == ArmReason.ArmRemoved) {
          return a;
        }
        ArmStatus again2 = ComparisonState.pending(n);
        ArmRuns.carry(a, again2);
        return again2;
      });
    }
  }

  /**
   * Why the arm's run must stop (null: it goes on): a reason that holds now, else the one its
   * running or ended cancel was asked for. A rerun, say, is seen by one reconcile only, and the
   * cancel it asked for may end in a later one: the run still ended because of the rerun.
   */
  private static CancelReason stopReason(ComparisonState s, Decisions d, ArmStatus a, Observation seen) {
    CancelReason now = mustStop(s, d, a);
    if (now != null || a.runId == null) {
      return now;
    }
    RunRef ref = s.ref(a);
    return cancelling(ref, seen) ? seen.actions().reason(ref, Kind.CANCEL) : null;
  }

  /** Why the arm's run must stop now (null: it goes on). */
  private static CancelReason mustStop(ComparisonState s, Decisions d, ArmStatus a) {
    if (!s.specHasArm(a.name)) {
      return new CancelReason(ArmReason.ArmRemoved, "the arm was removed from the spec");
    }
    if (s.rc.getSpec() != null && s.rc.getSpec().suspended()) {
      return new CancelReason(ArmReason.Suspended, "spec.suspend is true");
    }
    if (s.rerun && !d.rerunDone.contains(a.name)) {
      return new CancelReason(ArmReason.RerunRequested, "a rerun was requested");
    }
    if (s.specErrors.isEmpty() && s.cluster != null && a.specHash != null && !a.specHash.equals(s.specHash(a.name))) {
      return new CancelReason(ArmReason.SpecChanged, "the arm's spec changed");
    }
    return null;
  }

  private static void end(ComparisonState s, ArmStatus a, ArmPhase phase, ArmReason reason, String message) {
    a.phase(phase);
    a.reason(reason);
    a.finishedAt = s.now.toString();
    a.message = message;
  }

  /**
   * Chooses a run id, then, once the id is written, submits: a restart never submits twice, and
   * never submits a run that no status names.
   */
  private void submitNext(ComparisonState s, Decisions d, Observation seen) {
    d.lookAgainWithin(nextStep(s, d, seen));
  }

  /** When to look again (null: when something changes). */
  private Duration nextStep(ComparisonState s, Decisions d, Observation seen) {
    boolean inFlight = d.arms.values().stream().anyMatch(a -> a.phase().inFlight());
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
    boolean hasTurn = d.arms.values().stream().anyMatch(ArmRuns::holdsHost);
    ClusterQueue.Place place = s.sharedHost() ? queue.want(s.clusterKey(), s.id, s.arrival(), hasTurn) : new ClusterQueue.Place(0, null);
    if (inFlight) {
      return Duration.ofMinutes(5);
    }
    if (s.clusterDeleting) {
      queue.leave(s.id);
      d.clusterState = new ClusterState(false, ConditionReason.ClusterDeleting, "GpuCluster " + s.cluster.getMetadata().getName()
          + " is being deleted: no new run starts on it");
      return null;
    }
    // A run whose id is recorded but not yet submitted goes first (the operator may have restarted
    // in between); else the next run of the schedule.
    ArmStatus next = d.arms.values().stream().filter(a -> a.phase() == ArmPhase.Pending && a.runId != null
        && s.specHasArm(a.name)).findFirst().orElse(null);
    Runs.Slot slot = next != null ? null : Runs.next(s.schedule(), arm -> ArmRuns.finished(d.arms.get(arm)));
    if (next == null && slot == null) {
      queue.leave(s.id);
      return null;
    }
    if (d.prerequisites != null && !Boolean.TRUE.equals(d.prerequisites.met())) {
      // Nothing is submitted to a host that lacks what the plans need; meanwhile another may use it.
      if (!hasTurn) {
        queue.leave(s.id);
      }
      return ComparisonPreflight.EVERY; // or sooner: woken when a check ends or the spec or cluster changes
    }
    if (!place.mayStart()) {
      // Woken by the queue when the comparison ahead leaves it.
      d.queued = new StatusAggregator.Queued(place.position(), place.holder().getNamespace().orElse("") + "/"
          + place.holder().getName(), s.cluster.getMetadata().getName());
      return null;
    }
    if (next == null) {
      // The arm's finished runs stay; the rest of its status is the new run's.
      ArmStatus previous = d.arms.get(slot.arm());
      if (previous != null && previous.phase() == ArmPhase.Pending) {
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
      d.arms.put(next.name, next);
      return Duration.ofMillis(100);
    }
    if (!s.persisted(next.name, next.runId)) {
      return Duration.ofMillis(100); // chosen in this reconcile: submitted once written
    }
    return submit(s, d, next, seen);
  }

  /** The submit of a recorded run: asked for, still running, or done (then applied). */
  private Duration submit(ComparisonState s, Decisions d, ArmStatus next, Observation seen) {
    RunRef ref = s.ref(next);
    Duration retry = d.failed.get(new HostActions.Key(ref, Kind.SUBMIT));
    if (retry != null) {
      return retry; // failed in an earlier pass of this reconcile
    }
    HostActions.Outcome submitted = seen.actions().outcome(ref, Kind.SUBMIT);
    if (submitted == null && !seen.actions().running(ref, Kind.SUBMIT)) {
      {
        // Everything the submit needs is read now, on the reconcile thread; the call reads the
        // secret variables' Secrets, stores the script's ConfigMap and submits on its own thread.
        Submissions.Prepared prepared = Submissions.Prepared.of(s.rc, s.cluster, s.planFor(next.name));
        RunHost host = s.host;
        var rc = s.rc;
        var cluster = s.cluster;
        // The namespace's GpuClusters, whose SSH Secrets no secret variable may name.
        var clusters = s.clustersOfNamespace.get();
        String arm = next.name;
        String runId = next.runId;
        java.time.Instant at = s.now;
        d.act(new Act.Submit(s.id, ref, () -> {
          SecretEnvFile secrets = secretEnv.resolve(rc, cluster, clusters);
          ScriptConfigMaps.store(client, rc, arm, runId, prepared.scriptFileName(), prepared.script(), prepared.scriptHash(),
              prepared.planJson());
          return Submissions.submit(host, ref, prepared, secrets, at);
        }));
      }
    }
    if (submitted == null) {
      return Duration.ofMinutes(5); // woken when the submit ends
    }
    d.act(new Act.Forget(ref, Kind.SUBMIT));
    if (submitted.ok()) {
      RunRecord record = submitted.record();
      ArmStatus status = RunTracker.submitted(record);
      ArmRuns.carry(next, status);
      d.arms.put(next.name, status);
      d.act(new Act.Track(s.id, s.clusterKey(), s.host, ref, record, s.pollInterval()));
      LOG.info("{} arm {}: run {} submitted as job {}{}", s.who, next.name, next.runId, record.jobId(),
          record.foundExisting() ? " (found, not resubmitted)" : "");
      return Duration.ofMinutes(5);
    }
    Duration again = retryAfterFailed(s, d, next, submitted.failure());
    d.failed.put(new HostActions.Key(ref, Kind.SUBMIT), again);
    return again;
  }

  /** Applies a failed submit to the arm and the status; returns when to try again. */
  private static Duration retryAfterFailed(ComparisonState s, Decisions d, ArmStatus next, Exception e) {
    if (e instanceof ScriptConfigMaps.NotOwnedException) {
      // Someone else's ConfigMap has the script's name: nothing is submitted until it is gone.
      next.message = "not submitted: " + e.getMessage();
      LOG.warn("{} arm {}: {}", s.who, next.name, e.getMessage());
      return Duration.ofMinutes(1);
    }
    if (e instanceof SecretEnvResolver.Unresolved) {
      d.secretEnvProblem = e.getMessage();
      next.message = "not submitted: " + e.getMessage();
      LOG.warn("{} arm {}: not submitted: {}", s.who, next.name, e.getMessage());
      return Duration.ofSeconds(30);
    }
    if (e instanceof HostException h) {
      d.clusterState = new ClusterState(false, HostFailures.reason(h.kind(), s.cluster.getSpec().mode()), e.getMessage());
    }
    next.message = "submit failed, will retry: " + e.getMessage();
    LOG.warn("{} arm {}: submit failed: {}", s.who, next.name, e.getMessage());
    return RETRY;
  }
}
