package dev.srt.operator.reconcile;

import dev.srt.operator.run.ArmProgress;
import dev.srt.operator.run.RunRecord;
import dev.srt.operator.run.Runs;
import dev.srt.operator.run.ArmPhase;
import dev.srt.operator.api.Api;
import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.config.Durations;
import dev.srt.operator.config.Echo;
import dev.srt.operator.config.Mappers;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.plan.SpecHash;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import dev.srt.operator.render.Scripts;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the arms of a RouterComparison one at a time on their GpuCluster: validate, record the run
 * id, submit, observe, and write status. It never waits for a host: it submits, records and returns;
 * {@link RunObservations} polls the runs and wakes it when something changed.
 */
@ControllerConfiguration(name = "routercomparison", finalizerName = Api.FINALIZER, generationAwareEventProcessing = false)
public class RouterComparisonReconciler implements Reconciler<RouterComparison>, Cleaner<RouterComparison> {
  private static final Logger LOG = LoggerFactory.getLogger(RouterComparisonReconciler.class);
  /** The reason of a run cancelled because its arm left the spec. */
  static final String ARM_REMOVED = "ArmRemoved";
  /** The Degraded reason of a reconcile that threw. */
  static final String RECONCILE_ERROR = "ReconcileError";

  private final KubernetesClient client;
  private final Hosts hosts;
  private final EventRecorder events;
  private final Clock clock;
  private final Duration startingPoll;
  private final SimpleInboundEventSource<RouterComparison> wakeUps = new SimpleInboundEventSource<>("run-observations");
  private final RunObservations observations;
  private final Map<ResourceID, Integer> cleanupAttempts = new ConcurrentHashMap<>();

  private final MeterRegistry metrics;
  private final Map<ResourceID, List<String>> armPhases = new ConcurrentHashMap<>();
  private final ArmResultGauges results;
  private final ClusterPolicy policy;
  private final ClusterQueue queue;
  private final SecretEnvResolver secretEnv;

  public RouterComparisonReconciler(KubernetesClient client, Hosts hosts, ClusterPolicy policy, EventRecorder events, Clock clock,
      Duration startingPoll, MeterRegistry metrics) {
    this.policy = policy;
    this.metrics = metrics;
    for (ArmPhase phase : ArmPhase.values()) {
      Gauge.builder("srt_arms", armPhases, m -> m.values().stream().flatMap(List::stream).filter(phase.name()::equals).count())
          .description("Arms of all RouterComparisons by phase").tag("phase", phase.name()).register(metrics);
    }
    this.results = new ArmResultGauges(metrics);
    this.client = client;
    this.secretEnv = new SecretEnvResolver(client);
    this.hosts = hosts;
    this.events = events;
    this.clock = clock;
    this.startingPoll = startingPoll;
    this.observations = new RunObservations(wakeUps::propagateEvent, startingPoll);
    this.queue = new ClusterQueue(wakeUps::propagateEvent);
  }

  @Override
  public List<EventSource<?, RouterComparison>> prepareEventSources(EventSourceContext<RouterComparison> context) {
    return List.of(wakeUps);
  }

  public RunObservations observations() {
    return observations;
  }

  @Override
  public UpdateControl<RouterComparison> reconcile(RouterComparison rc, Context<RouterComparison> context) {
    Instant now = clock.instant();
    metrics.counter("srt_reconciles_total", "kind", "RouterComparison").increment();
    String who = "RouterComparison " + rc.getMetadata().getNamespace() + "/" + rc.getMetadata().getName();
    RouterComparisonStatus old = rc.getStatus();
    Run run = new Run(rc, who, now);
    run.load();
    run.observe();
    run.cancelWhatMustStop();
    Duration again = run.submitNext();
    RouterComparisonStatus next = run.status();
    run.emitTransitions(old, next);
    armPhases.put(ResourceID.fromResource(rc), next.arms.stream().map(a -> a.phase).toList());
    results.update(ResourceID.fromResource(rc), next.arms);
    if (!sameStatus(old, next)) {
      writeStatus(rc, context, next);
    }
    UpdateControl<RouterComparison> control = UpdateControl.noUpdate();
    return again == null ? control : control.rescheduleAfter(again);
  }

  /**
   * A reconcile that threw shows in status and events, not only in the log: Degraded with reason
   * ReconcileError and the error's message, and a ReconcileFailed event. JOSDK retries with backoff.
   */
  @Override
  public ErrorStatusUpdateControl<RouterComparison> updateErrorStatus(RouterComparison rc, Context<RouterComparison> context,
      Exception e) {
    String message = Echo.value(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    LOG.warn("RouterComparison {}/{}: reconcile failed: {}", rc.getMetadata().getNamespace(), rc.getMetadata().getName(), message, e);
    events.record(rc, EventReason.ReconcileFailed, null, "reconcile failed (retrying with backoff): " + message);
    RouterComparisonStatus s = rc.getStatus() == null ? new RouterComparisonStatus() : Mappers.json().convertValue(rc.getStatus(), RouterComparisonStatus.class);
    Conditions.set(s.conditions, StatusAggregator.DEGRADED, Conditions.TRUE, RECONCILE_ERROR, message,
        rc.getMetadata().getGeneration(), clock.instant());
    s.message = "reconcile failed (retrying): " + message;
    rc.setStatus(s);
    return ErrorStatusUpdateControl.patchStatus(rc);
  }

  /** One reconciliation of one comparison. */
  private final class Run {
    final RouterComparison rc;
    final String who;
    final Instant now;
    final String ns;
    final String name;
    final ResourceID id;
    final long generation;
    GpuCluster cluster;
    List<Problem> specErrors = new ArrayList<>();
    boolean clusterInvalid;
    ClusterState clusterState;
    RunHost host;
    final Map<String, ArmStatus> arms = new LinkedHashMap<>();
    String observedRerun;
    boolean rerun;
    /** The GpuCluster is being deleted: its runs are watched (and cancelled) but none is started. */
    boolean clusterDeleting;
    /** Waiting for the direct host that another comparison holds. */
    StatusAggregator.Queued queued;
    String secretEnvProblem;

    Run(RouterComparison rc, String who, Instant now) {
      this.rc = rc;
      this.who = who;
      this.now = now;
      this.ns = rc.getMetadata().getNamespace();
      this.name = rc.getMetadata().getName();
      this.id = ResourceID.fromResource(rc);
      this.generation = rc.getMetadata().getGeneration() == null ? 0 : rc.getMetadata().getGeneration();
    }

    void load() {
      RouterComparisonStatus old = rc.getStatus();
      Map<String, ArmStatus> previous = new HashMap<>();
      if (old != null && old.arms != null) {
        old.arms.forEach(a -> previous.put(a.name, copy(a)));
      }
      for (ArmSpec arm : rc.getSpec() == null ? List.<ArmSpec>of() : rc.getSpec().arms) {
        ArmStatus a = previous.remove(arm.name);
        arms.put(arm.name, a != null ? a : pending(arm.name));
      }
      // Arms removed from the spec: keep watching one that still runs until it is cancelled, and
      // keep reporting its cancellation until the spec changes again.
      boolean sameGeneration = old != null && old.observedGeneration != null && old.observedGeneration == generation;
      previous.values().stream()
          .filter(a -> ArmPhase.of(a.phase).inFlight() || (sameGeneration && ARM_REMOVED.equals(a.reason)))
          .forEach(a -> arms.put(a.name, a));
      observedRerun = old == null ? null : old.observedRerun;
      String token = annotation(Api.RERUN_ANNOTATION);
      rerun = token != null && !token.equals(observedRerun);
      if (rerun) {
        observedRerun = token;
      }

      String clusterName = rc.getSpec() == null || rc.getSpec().clusterRef == null ? null : rc.getSpec().clusterRef.name;
      cluster = clusterName == null ? null : client.resources(GpuCluster.class).inNamespace(ns).withName(clusterName).get();
      specErrors = new ArrayList<>(Validator.validate(rc, cluster).stream().filter(Problem::isError).toList());
      specErrors.addAll(policy.problems(rc, cluster));
      if (cluster == null) {
        clusterState = new ClusterState(false, "ClusterNotFound", "GpuCluster " + clusterName + " not found in namespace " + ns);
        return;
      }
      List<Problem> clusterErrors = Validator.validate(cluster).stream().filter(Problem::isError).toList();
      if (!clusterErrors.isEmpty()) {
        clusterInvalid = true;
        clusterState = new ClusterState(false, "ClusterInvalid", "GpuCluster " + clusterName + ": "
            + clusterErrors.stream().map(Problem::describe).reduce((x, y) -> x + "; " + y).orElse(""));
        return;
      }
      var refusal = policy.refusal(cluster);
      if (refusal.isPresent()) {
        clusterState = new ClusterState(false, refusal.get().reason(), "GpuCluster " + clusterName + ": " + refusal.get().message());
        return;
      }
      clusterDeleting = cluster.getMetadata().getDeletionTimestamp() != null;
      try {
        cluster = policy.preparer().prepare(cluster);
        host = hosts.forCluster(cluster);
        ClusterState polled = observations.clusterState(clusterKey());
        clusterState = polled != null ? polled : new ClusterState(null, "Probing", "connecting to " + host.describe());
      } catch (HostException e) {
        clusterState = new ClusterState(false, "Unreachable", e.getMessage());
      }
    }

    /** Replays each in-flight run's events into its status. */
    void observe() {
      for (ArmStatus a : arms.values()) {
        if (!ArmPhase.of(a.phase).inFlight() || a.runId == null) {
          continue;
        }
        RunRef ref = ref(a);
        if (host != null) {
          observations.track(id, clusterKey(), host, ref, a.jobId, pollInterval());
        }
        observations.view(ref).ifPresent(view -> {
          // Replayed against the run's record, never re-planned from today's spec: the arm may
          // have changed, left the spec, or the spec may no longer be valid (160000000 workers).
          ArmStatus fresh = ArmProgress.submitted(RunRecord.of(a));
          ArmProgress.apply(fresh, view.events(), view.job(), view.results(), now);
          if (!ArmPhase.of(fresh.phase).terminal() && view.job() != null && view.job().state() == JobState.NOT_FOUND
              && view.events().isEmpty() && Instant.parse(a.startedAt).plus(Runs.NOT_FOUND_GRACE).isBefore(now)) {
            fresh.phase = ArmPhase.Failed.name();
            fresh.finishedAt = now.toString();
            fresh.message = "job " + a.jobId + " is not known to the host";
          }
          arms.put(a.name, fresh);
          if (ArmPhase.of(fresh.phase).terminal()) {
            if (!ArmProgress.reportedOutcome(view.events()) && host != null) {
              reap(ref, a.jobId);
            }
            observations.untrack(ref);
            LOG.info("{} arm {}: run {} {}", who, a.name, a.runId, fresh.phase);
          }
        });
      }
    }

    /** A run killed before its exit handler ran leaves processes behind (ports, GPUs, the host's lease). */
    void reap(RunRef ref, String jobId) {
      try {
        host.cancel(ref, jobId);
        LOG.info("{} arm {}: run {} ended without reporting an outcome; stopped what it left running", who, ref.arm(), ref.runId());
      } catch (HostException e) {
        LOG.warn("{} arm {}: cannot stop what run {} left running: {}", who, ref.arm(), ref.runId(), e.getMessage());
      }
    }

    /** Cancels runs that must stop: suspended, rerun requested, spec changed, or arm removed. */
    void cancelWhatMustStop() {
      boolean suspended = rc.getSpec() != null && rc.getSpec().suspended();
      for (ArmStatus a : new ArrayList<>(arms.values())) {
        if (ArmPhase.of(a.phase) == ArmPhase.Cancelled && ARM_REMOVED.equals(a.reason)) {
          continue; // reported already; kept in status until the spec changes again
        }
        String reason = null;
        String why = null;
        if (!specHasArm(a.name)) {
          reason = ARM_REMOVED;
          why = "the arm was removed from the spec";
        } else if (suspended) {
          reason = "Suspended";
          why = "spec.suspend is true";
        } else if (rerun) {
          reason = "RerunRequested";
          why = "a rerun was requested";
        } else if (specErrors.isEmpty() && cluster != null && a.specHash != null && !a.specHash.equals(specHash(a.name))) {
          reason = "SpecChanged";
          why = "the arm's spec changed";
        }
        if (why == null) {
          continue;
        }
        String runId = a.runId;
        boolean hadRun = ArmPhase.of(a.phase).inFlight() || (ArmPhase.of(a.phase) == ArmPhase.Pending && a.runId != null);
        if (hadRun) {
          if (host == null) {
            a.message = "cannot cancel yet (" + why + "): cluster unreachable";
            continue;
          }
          try {
            host.cancel(ref(a), a.jobId);
            observations.untrack(ref(a));
            LOG.info("{} arm {}: cancelled run {} because {}", who, a.name, a.runId, why);
            events.record(rc, EventReason.Cancelled, a.name, "arm " + a.name + ": run " + runId + " cancelled (" + reason + "): " + why);
          } catch (HostException e) {
            a.message = "cancel failed (" + why + "): " + e.getMessage();
            LOG.warn("{} arm {}: cancel failed: {}", who, a.name, e.getMessage());
            continue;
          }
        }
        if (!specHasArm(a.name)) {
          if (hadRun) {
            a.phase = ArmPhase.Cancelled.name();
            a.reason = ARM_REMOVED;
            a.finishedAt = now.toString();
            a.message = "cancelled: " + why;
          } else {
            arms.remove(a.name);
          }
        } else if (!suspended) {
          ArmStatus next = pending(a.name);
          if (hadRun) {
            next.reason = reason;
            next.message = "run " + runId + " cancelled: " + why;
          }
          arms.put(a.name, next);
        } else if (hadRun) {
          a.phase = ArmPhase.Cancelled.name();
          a.reason = reason;
          a.finishedAt = now.toString();
          a.message = "cancelled: " + why;
        }
      }
      if (!suspended) {
        // A run that was cancelled (by suspend, or on the host) runs again once nothing holds it.
        arms.replaceAll((n, a) -> ArmPhase.of(a.phase) == ArmPhase.Cancelled && !ARM_REMOVED.equals(a.reason) ? pending(n) : a);
      }
    }

    /** Records a run id, then submits: one step per reconcile, so a restart never submits twice. */
    Duration submitNext() {
      boolean inFlight = arms.values().stream().anyMatch(a -> ArmPhase.of(a.phase).inFlight());
      if (!specErrors.isEmpty() || (rc.getSpec() != null && rc.getSpec().suspended())) {
        if (!inFlight) {
          queue.leave(id);
        }
        return null;
      }
      if (host == null) {
        return Duration.ofSeconds(15);
      }
      ClusterQueue.Place place = sharedHost() ? queue.want(clusterKey(), id, arrival(), inFlight) : new ClusterQueue.Place(0, null);
      if (inFlight) {
        return Duration.ofMinutes(5);
      }
      if (clusterDeleting) {
        queue.leave(id);
        clusterState = new ClusterState(false, "ClusterDeleting", "GpuCluster " + cluster.getMetadata().getName()
            + " is being deleted: no new run starts on it");
        return null;
      }
      ArmStatus next = order().stream().map(arms::get)
          .filter(a -> a != null && ArmPhase.of(a.phase) == ArmPhase.Pending).findFirst().orElse(null);
      if (next == null) {
        queue.leave(id);
        return null;
      }
      if (!place.mayStart()) {
        // Woken by the queue when the comparison ahead leaves it.
        queued = new StatusAggregator.Queued(place.position(), place.holder().getNamespace().orElse("") + "/"
            + place.holder().getName(), cluster.getMetadata().getName());
        return null;
      }
      if (next.runId == null) {
        next.runId = Runs.newRunId();
        next.specHash = specHash(next.name);
        next.message = "submitting run " + next.runId;
        return Duration.ofMillis(100);
      }
      RunRef ref = ref(next);
      try {
        RunPlan plan = planFor(next.name);
        SecretEnvFile secrets = secretEnv.resolve(rc, cluster);
        String script = Scripts.render(plan);
        String scriptHash = "sha256:" + Hashes.sha256(script);
        String planJson = plan.json();
        ScriptConfigMaps.store(client, rc, next.name, next.runId, Scripts.fileName(plan), script, scriptHash, planJson);
        Submission s = host.submit(ref, new RunFiles(script, planJson, secrets));
        ArmStatus submitted = ArmProgress.submitted(next.name, next.runId, s.jobId(), host.runDir(ref), scriptHash,
            next.specHash, plan, now);
        if (s.alreadyExisted()) {
          submitted.message = "found the run's existing job " + s.jobId();
        }
        arms.put(next.name, submitted);
        observations.track(id, clusterKey(), host, ref, s.jobId(), pollInterval());
        LOG.info("{} arm {}: run {} submitted as job {}{}", who, next.name, next.runId, s.jobId(),
            s.alreadyExisted() ? " (found, not resubmitted)" : "");
        return Duration.ofMinutes(5);
      } catch (ScriptConfigMaps.NotOwnedException e) {
        // Someone else's ConfigMap has the script's name: nothing is submitted until it is gone.
        next.message = "not submitted: " + e.getMessage();
        LOG.warn("{} arm {}: {}", who, next.name, e.getMessage());
        return Duration.ofMinutes(1);
      } catch (HostException e) {
        clusterState = new ClusterState(false, "Unreachable", e.getMessage());
        next.message = "submit failed, will retry: " + e.getMessage();
        LOG.warn("{} arm {}: submit failed: {}", who, next.name, e.getMessage());
        return Duration.ofSeconds(15);
      } catch (SecretEnvResolver.Unresolved e) {
        secretEnvProblem = e.getMessage();
        next.message = "not submitted: " + e.getMessage();
        LOG.warn("{} arm {}: not submitted: {}", who, next.name, e.getMessage());
        return Duration.ofSeconds(30);
      }
    }

    RouterComparisonStatus status() {
      String current = arms.values().stream().filter(a -> ArmPhase.of(a.phase).inFlight()).map(a -> a.name)
          .findFirst().orElse(null);
      return withRerun(StatusAggregator.aggregate(rc.getStatus(), new StatusAggregator.Inputs(generation, specErrors,
          clusterState, rc.getSpec() != null && rc.getSpec().suspended(), new ArrayList<>(arms.values()), current, null,
          secretEnvProblem, queued), now));
    }

    RouterComparisonStatus withRerun(RouterComparisonStatus s) {
      s.observedRerun = observedRerun;
      return s;
    }

    void emitTransitions(RouterComparisonStatus old, RouterComparisonStatus next) {
      if (!isFalse(old, StatusAggregator.SPEC_VALID) && isFalse(next, StatusAggregator.SPEC_VALID)) {
        events.record(rc, EventReason.SpecInvalid, null, Conditions.find(next.conditions, StatusAggregator.SPEC_VALID).getMessage());
      }
      if (!isFalse(old, StatusAggregator.CLUSTER_REACHABLE) && isFalse(next, StatusAggregator.CLUSTER_REACHABLE)) {
        events.record(rc, EventReason.ClusterUnreachable, null, Conditions.find(next.conditions, StatusAggregator.CLUSTER_REACHABLE).getMessage());
      }
      if (secretEnvProblem != null && !hasReason(old, StatusAggregator.DEGRADED, StatusAggregator.SECRET_ENV_MISSING)) {
        events.record(rc, EventReason.SecretEnvMissing, null, secretEnvProblem + "; nothing is submitted");
      }
      Map<String, ArmStatus> before = new HashMap<>();
      if (old != null && old.arms != null) {
        old.arms.forEach(a -> before.put(a.name, a));
      }
      for (ArmStatus a : next.arms) {
        ArmStatus b = before.get(a.name);
        boolean sameRun = b != null && Objects.equals(b.runId, a.runId);
        ArmPhase was = sameRun ? ArmPhase.of(b.phase) : ArmPhase.Pending;
        ArmPhase is = ArmPhase.of(a.phase);
        String subject = a.name;
        if (was == ArmPhase.Pending && is != ArmPhase.Pending && a.jobId != null) {
          events.record(rc, EventReason.Submitted, subject, "arm " + a.name + ": run " + a.runId + " submitted as job " + a.jobId);
        }
        boolean workersWere = sameRun && b.workers != null && b.workers.total > 0 && b.workers.ready == b.workers.total;
        if (!workersWere && a.workers != null && a.workers.total > 0 && a.workers.ready == a.workers.total) {
          events.record(rc, EventReason.WorkersReady, subject, "arm " + a.name + ": all " + a.workers.total + " workers healthy");
        }
        boolean routerWas = sameRun && b.router != null && b.router.ready;
        if (!routerWas && a.router != null && a.router.ready) {
          events.record(rc, EventReason.RouterReady, subject, "arm " + a.name + ": router ready at " + a.router.url);
        }
        // A run the operator cancelled was reported when it was cancelled (with its reason).
        if (!was.terminal() && is.terminal() && a.runId != null && !(is == ArmPhase.Cancelled && a.reason != null)) {
          EventReason reason = is == ArmPhase.Succeeded ? EventReason.Succeeded
              : is == ArmPhase.Cancelled ? EventReason.Cancelled : EventReason.Failed;
          String detail = is == ArmPhase.Succeeded ? ResultsLine.of(a.results) : a.message;
          events.record(rc, reason, subject, "arm " + a.name + ": " + is.name().toLowerCase()
              + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        }
      }
    }

    List<String> order() {
      // Stable across restarts: seeded by the object's identity and generation.
      return Runs.order(rc.getSpec(), rc.getSpec().arms.stream().map(a -> a.name).toList(),
          Runs.seed(rc.getMetadata().getUid(), generation));
    }

    boolean specHasArm(String arm) {
      return rc.getSpec() != null && rc.getSpec().arms.stream().anyMatch(a -> a.name.equals(arm));
    }

    String specHash(String arm) {
      ArmSpec spec = rc.getSpec().arms.stream().filter(a -> a.name.equals(arm)).findFirst().orElseThrow();
      return SpecHash.of(rc.getSpec(), spec, cluster == null ? null : cluster.getSpec());
    }

    RunPlan planFor(String arm) {
      return Planner.plan(rc, cluster, arm, null);
    }

    RunRef ref(ArmStatus a) {
      return new RunRef(ns, name, a.name, a.runId);
    }

    String clusterKey() {
      return ns + "/" + cluster.getMetadata().getName();
    }

    /** A direct host runs one comparison at a time (Slurm queues jobs itself). */
    boolean sharedHost() {
      return "direct".equals(cluster.getSpec().mode);
    }

    Instant arrival() {
      String created = rc.getMetadata().getCreationTimestamp();
      return created == null ? Instant.EPOCH : Instant.parse(created);
    }

    Duration pollInterval() {
      return Durations.parse(cluster.getSpec().pollInterval, Duration.ofSeconds(5));
    }

    String annotation(String key) {
      return rc.getMetadata().getAnnotations() == null ? null : rc.getMetadata().getAnnotations().get(key);
    }
  }

  @Override
  public DeleteControl cleanup(RouterComparison rc, Context<RouterComparison> context) {
    String who = "RouterComparison " + rc.getMetadata().getNamespace() + "/" + rc.getMetadata().getName();
    ResourceID id = ResourceID.fromResource(rc);
    List<ArmStatus> running = rc.getStatus() == null || rc.getStatus().arms == null ? List.of()
        : rc.getStatus().arms.stream().filter(a -> a.runId != null
            && (ArmPhase.of(a.phase).inFlight() || ArmPhase.of(a.phase) == ArmPhase.Pending)).toList();
    Map<String, String> annotations = rc.getMetadata().getAnnotations();
    if (annotations != null && "true".equals(annotations.get(Api.ORPHAN_ON_DELETE_ANNOTATION))) {
      running.forEach(a -> observations.untrack(new RunRef(rc.getMetadata().getNamespace(), rc.getMetadata().getName(), a.name, a.runId)));
      LOG.info("{}: deleted with {}: leaving {} run(s) on the host", who, Api.ORPHAN_ON_DELETE_ANNOTATION, running.size());
      queue.leave(id);
      cleanupAttempts.remove(id);
      return DeleteControl.defaultDelete();
    }
    String problem = null;
    try {
      String clusterName = rc.getSpec() == null || rc.getSpec().clusterRef == null ? null : rc.getSpec().clusterRef.name;
      GpuCluster cluster = running.isEmpty() || clusterName == null ? null
          : client.resources(GpuCluster.class).inNamespace(rc.getMetadata().getNamespace()).withName(clusterName).get();
      if (!running.isEmpty() && cluster == null) {
        problem = "GpuCluster " + clusterName + " not found, so its jobs cannot be cancelled";
      } else if (!running.isEmpty() && policy.refusal(cluster).isPresent()) {
        problem = "GpuCluster " + clusterName + ": " + policy.refusal(cluster).get().message();
      } else if (!running.isEmpty()) {
        RunHost host = hosts.forCluster(cluster);
        for (ArmStatus a : running) {
          RunRef ref = new RunRef(rc.getMetadata().getNamespace(), rc.getMetadata().getName(), a.name, a.runId);
          host.cancel(ref, a.jobId);
          observations.untrack(ref);
          LOG.info("{} arm {}: cancelled run {} on deletion", who, a.name, a.runId);
          events.record(rc, EventReason.Cancelled, a.name, "arm " + a.name + ": cancelled because the comparison is being deleted");
        }
      }
    } catch (HostException e) {
      problem = "cannot cancel jobs: " + e.getMessage();
    }
    if (problem == null) {
      queue.leave(id);
      cleanupAttempts.remove(id);
      armPhases.remove(id);
      results.remove(id);
      return DeleteControl.defaultDelete();
    }
    int attempt = cleanupAttempts.merge(id, 1, Integer::sum);
    String message = problem + "; retrying (set annotation " + Api.ORPHAN_ON_DELETE_ANNOTATION + "=\"true\" to delete without cancelling)";
    LOG.warn("{}: {}", who, message);
    if (attempt == 1) {
      events.record(rc, EventReason.ClusterUnreachable, "delete", message);
    }
    RouterComparisonStatus degraded = StatusAggregator.aggregate(rc.getStatus(), new StatusAggregator.Inputs(
        rc.getMetadata().getGeneration() == null ? 0 : rc.getMetadata().getGeneration(), List.of(),
        new ClusterState(false, "Unreachable", problem), false,
        rc.getStatus() == null || rc.getStatus().arms == null ? List.of() : rc.getStatus().arms, null, message), clock.instant());
    degraded.observedRerun = rc.getStatus() == null ? null : rc.getStatus().observedRerun;
    try {
      writeStatus(rc, context, degraded);
    } catch (RuntimeException e) {
      LOG.warn("{}: cannot write status during deletion: {}", who, e.getMessage());
    }
    long delay = Math.min(300_000L, 2_000L * (1L << Math.min(attempt, 8)));
    return DeleteControl.noFinalizerRemoval().rescheduleAfter(delay);
  }

  /**
   * Replaces the status (the operator is its only writer) and puts the result in JOSDK's cache at
   * once, so the next reconcile sees the recorded run id even before the watch event arrives.
   */
  protected void writeStatus(RouterComparison rc, Context<RouterComparison> context, RouterComparisonStatus status) {
    PrimaryUpdateAndCacheUtils.updateStatusAndCacheResource(rc, context, r -> {
      r.setStatus(status);
      return r;
    });
  }

  static ArmStatus pending(String arm) {
    ArmStatus a = new ArmStatus();
    a.name = arm;
    a.phase = ArmPhase.Pending.name();
    return a;
  }

  static ArmStatus copy(ArmStatus a) {
    return Mappers.json().convertValue(a, ArmStatus.class);
  }

  static boolean sameStatus(RouterComparisonStatus a, RouterComparisonStatus b) {
    return a != null && Mappers.json().valueToTree(a).equals(Mappers.json().valueToTree(b));
  }

  static boolean hasReason(RouterComparisonStatus s, String type, String reason) {
    var c = s == null || s.conditions == null ? null : Conditions.find(s.conditions, type);
    return c != null && reason.equals(c.getReason());
  }

  static boolean isFalse(RouterComparisonStatus s, String type) {
    if (s == null || s.conditions == null) {
      return false;
    }
    var c = Conditions.find(s.conditions, type);
    return c != null && Conditions.FALSE.equals(c.getStatus());
  }

  /** Stops the poller (the operator calls this on shutdown). */
  public void close() {
    observations.close();
  }
}
