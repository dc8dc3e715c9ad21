package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.api.Api;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import io.javaoperatorsdk.operator.api.reconciler.ResourceCache;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.config.Echo;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.Backoff;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.stream.Collectors;
import java.util.Set;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives the arms of a RouterComparison one at a time on their GpuCluster. Each reconcile observes,
 * decides, acts and records: it loads a {@link ComparisonState}, the {@link ArmObserver} takes an
 * {@link Observation} of the runs and host actions, the {@link ArmScheduler} returns its
 * {@link Decisions}, the {@link DecisionExecutor} performs them (host calls on threads of their
 * own), and the {@link StatusRecorder} derives the status, which goes to the listeners (events,
 * metrics) and is written if it changed. It never waits for a host: {@link RunObservations} polls
 * the runs and {@link HostActions} runs the calls, and each wakes it when something changed.
 */
@ControllerConfiguration(name = "routercomparison", finalizerName = Api.FINALIZER, generationAwareEventProcessing = false)
public class RouterComparisonReconciler implements Reconciler<RouterComparison>, Cleaner<RouterComparison> {
  private static final Logger LOG = LoggerFactory.getLogger(RouterComparisonReconciler.class);

  private final KubernetesClient client;
  private final Hosts hosts;
  private final ClusterPolicy policy;
  private final EventRecorder events;
  private final Clock clock;
  private final MeterRegistry metrics;
  private final SimpleInboundEventSource<RouterComparison> wakeUps = new SimpleInboundEventSource<>("run-observations");
  private final RunObservations observations;
  private final ArmObserver observer;
  private final ArmScheduler scheduler;
  private final DecisionExecutor executor;
  private final HostActions actions;
  /** How long a deletion waits before it looks again at cancels that failed. */
  private final Backoff cleanupBackoff = new Backoff(Duration.ofSeconds(4), Duration.ofMinutes(5), 2.0, 0.2);
  private final ComparisonPreflight preflight;
  private final List<StatusListener> listeners;
  private final Map<ResourceID, Integer> cleanupAttempts = new ConcurrentHashMap<>();

  public RouterComparisonReconciler(KubernetesClient client, Hosts hosts, ClusterPolicy policy, EventRecorder events, Clock clock,
      Duration startingPoll, MeterRegistry metrics) {
    this(client, hosts, policy, events, clock, startingPoll, metrics, null);
  }

  /**
   * {@code hostCalls} runs the submits and cancels ({@code Runnable::run}: in the reconcile that
   * decides them, for tests of the decisions); null for a pool of their own, never the reconcile
   * thread.
   */
  public RouterComparisonReconciler(KubernetesClient client, Hosts hosts, ClusterPolicy policy, EventRecorder events, Clock clock,
      Duration startingPoll, MeterRegistry metrics, java.util.concurrent.Executor hostCalls) {
    this.client = client;
    this.hosts = hosts;
    this.policy = policy;
    this.events = events;
    this.clock = clock;
    this.metrics = metrics;
    this.observations = new RunObservations(wakeUps::propagateEvent, startingPoll, clock);
    this.actions = new HostActions(wakeUps::propagateEvent, clock, hostCalls);
    this.observer = new ArmObserver(observations, actions);
    this.preflight = new ComparisonPreflight(wakeUps::propagateEvent, clock, ComparisonPreflight.EVERY);
    this.scheduler = new ArmScheduler(client, new ClusterQueue(wakeUps::propagateEvent), preflight);
    this.executor = new DecisionExecutor(observations, actions, events);
    this.listeners = List.of(new TransitionEvents(events), new ArmMetrics(metrics));
  }

  /**
   * The poller's wake-ups, and the GpuClusters: a comparison reads its cluster from the informer's
   * cache and is reconciled when the cluster changes, never by a timed re-read.
   */
  @Override
  public List<EventSource<?, RouterComparison>> prepareEventSources(EventSourceContext<RouterComparison> context) {
    context.getPrimaryCache().addIndexer(CLUSTER_INDEX, rc -> List.of(clusterKey(rc.getMetadata().getNamespace(), clusterName(rc))));
    var clusters = InformerEventSourceConfiguration.from(GpuCluster.class, RouterComparison.class)
        .withNamespacesInheritedFromController()
        .withSecondaryToPrimaryMapper(cluster -> context.getPrimaryCache()
            .byIndex(CLUSTER_INDEX, clusterKey(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName()))
            .stream().map(ResourceID::fromResource).collect(Collectors.toSet()))
        .withPrimaryToSecondaryMapper((RouterComparison rc) -> clusterName(rc) == null ? Set.of()
            : Set.of(new ResourceID(clusterName(rc), rc.getMetadata().getNamespace())))
        .build();
    return List.of(wakeUps, new InformerEventSource<>(clusters, context));
  }

  private static final String CLUSTER_INDEX = "clusterRef";

  private static String clusterName(RouterComparison rc) {
    return rc.getSpec() == null || rc.getSpec().clusterRef == null ? null : rc.getSpec().clusterRef.name;
  }

  private static String clusterKey(String namespace, String name) {
    return namespace + "/" + name;
  }

  /** The comparison's GpuCluster: from the informer, or (a reconcile called without JOSDK, in tests) the API. */
  private GpuCluster cluster(RouterComparison rc, Context<RouterComparison> context, String name) {
    if (context != null) {
      return context.getSecondaryResource(GpuCluster.class).orElse(null);
    }
    return client.resources(GpuCluster.class).inNamespace(rc.getMetadata().getNamespace()).withName(name).get();
  }

  /**
   * Every GpuCluster of the comparison's namespace: from the informer's cache, or (a reconcile
   * called without JOSDK, in tests) the API.
   */
  private List<GpuCluster> clustersOfNamespace(RouterComparison rc, Context<RouterComparison> context) {
    String ns = rc.getMetadata().getNamespace();
    if (context != null && context.eventSourceRetriever().getEventSourceFor(GpuCluster.class) instanceof ResourceCache<?> cache) {
      return cache.list(ns).map(GpuCluster.class::cast).toList();
    }
    return client.resources(GpuCluster.class).inNamespace(ns).list().getItems();
  }

  public RunObservations observations() {
    return observations;
  }

  /** How many times one reconcile decides: again after host actions that ended while it acted. */
  static final int MAX_PASSES = 3;

  /** Load, observe, decide, act, then record the status. */
  @Override
  public UpdateControl<RouterComparison> reconcile(RouterComparison rc, Context<RouterComparison> context) {
    metrics.counter("srt_reconciles_total", "kind", "RouterComparison").increment();
    RouterComparisonStatus old = rc.getStatus();
    ComparisonState state = ComparisonState.load(rc, clock.instant(), name -> cluster(rc, context, name),
        () -> clustersOfNamespace(rc, context), hosts, policy, observations);
    Decisions decided = null;
    for (int pass = 1; pass <= MAX_PASSES; pass++) {
      decided = scheduler.decide(state, decided, observer.observe(state, decided == null ? state.arms : decided.arms));
      if (!executor.perform(rc, decided.acts)) {
        break;
      }
    }
    RouterComparisonStatus next = StatusRecorder.status(state, decided);
    listeners.forEach(l -> l.changed(rc, old, next));
    if (!sameStatus(old, next)) {
      writeStatus(rc, context, next);
    }
    UpdateControl<RouterComparison> control = UpdateControl.noUpdate();
    return decided.again == null ? control : control.rescheduleAfter(decided.again);
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
    Conditions.set(s.conditions, StatusAggregator.DEGRADED, Conditions.TRUE, ConditionReason.ReconcileError, message,
        rc.getMetadata().getGeneration(), clock.instant());
    s.message = "reconcile failed (retrying): " + message;
    rc.setStatus(s);
    return ErrorStatusUpdateControl.patchStatus(rc);
  }

  /**
   * Cancels the comparison's runs before it goes, each cancel on the host actions' threads: the
   * finalizer stays until every run is cancelled (or gone), and the deletion looks again with
   * backoff while a host cannot be reached. The orphan annotation lets it go without cancelling.
   */
  @Override
  public DeleteControl cleanup(RouterComparison rc, Context<RouterComparison> context) {
    String who = "RouterComparison " + rc.getMetadata().getNamespace() + "/" + rc.getMetadata().getName();
    ResourceID id = ResourceID.fromResource(rc);
    List<ArmStatus> running = rc.getStatus() == null || rc.getStatus().arms == null ? List.of()
        : rc.getStatus().arms.stream().filter(ArmRuns::holdsHost).toList();
    Map<String, String> annotations = rc.getMetadata().getAnnotations();
    if (annotations != null && "true".equals(annotations.get(Api.ORPHAN_ON_DELETE_ANNOTATION))) {
      running.forEach(a -> observations.untrack(ref(rc, a)));
      LOG.info("{}: deleted with {}: leaving {} run(s) on the host", who, Api.ORPHAN_ON_DELETE_ANNOTATION, running.size());
      return deleted(rc, id);
    }
    String problem = null;
    boolean waiting = false;
    String clusterName = rc.getSpec() == null || rc.getSpec().clusterRef == null ? null : rc.getSpec().clusterRef.name;
    GpuCluster cluster = running.isEmpty() || clusterName == null ? null : cluster(rc, context, clusterName);
    if (!running.isEmpty() && cluster == null) {
      problem = "GpuCluster " + clusterName + " not found, so its jobs cannot be cancelled";
    } else if (!running.isEmpty() && policy.refusal(cluster).isPresent()) {
      problem = "GpuCluster " + clusterName + ": " + policy.refusal(cluster).get().message();
    } else if (!running.isEmpty()) {
      try {
        RunHost host = hosts.forCluster(cluster);
        for (ArmStatus a : running) {
          RunRef ref = ref(rc, a);
          if (actions.outcome(ref, HostActions.Kind.CANCEL) == null) {
            executor.perform(rc, List.of(new Act.Cancel(id, ref, host, a.jobId, null)));
          }
          HostActions.Outcome cancelled = actions.outcome(ref, HostActions.Kind.CANCEL);
          if (cancelled == null) {
            waiting = true;
          } else if (!cancelled.ok()) {
            actions.forget(ref, HostActions.Kind.CANCEL);
            problem = "cannot cancel jobs: " + cancelled.failure().getMessage();
          } else {
            observations.untrack(ref);
            LOG.info("{} arm {}: cancelled run {} on deletion", who, a.name, a.runId);
            events.record(rc, EventReason.Cancelled, a.name, "arm " + a.name + ": cancelled because the comparison is being deleted");
          }
        }
      } catch (HostException e) {
        problem = "cannot cancel jobs: " + e.getMessage();
      }
    }
    if (problem == null && !waiting) {
      return deleted(rc, id);
    }
    if (problem == null) {
      // Woken when the cancels end.
      return DeleteControl.noFinalizerRemoval().rescheduleAfter(Duration.ofMinutes(1).toMillis());
    }
    int attempt = cleanupAttempts.merge(id, 1, Integer::sum);
    String message = problem + "; retrying (set annotation " + Api.ORPHAN_ON_DELETE_ANNOTATION + "=\"true\" to delete without cancelling)";
    LOG.warn("{}: {}", who, message);
    if (attempt == 1) {
      events.record(rc, EventReason.ClusterUnreachable, "delete", message);
    }
    RouterComparisonStatus degraded = StatusAggregator.aggregate(rc.getStatus(), new StatusAggregator.Inputs(
        rc.getMetadata().getGeneration() == null ? 0 : rc.getMetadata().getGeneration(), List.of(),
        new ClusterState(false, ConditionReason.Unreachable, problem), false,
        rc.getStatus() == null || rc.getStatus().arms == null ? List.of() : rc.getStatus().arms, null, message), clock.instant());
    degraded.observedRerun = rc.getStatus() == null ? null : rc.getStatus().observedRerun;
    try {
      writeStatus(rc, context, degraded);
    } catch (RuntimeException e) {
      LOG.warn("{}: cannot write status during deletion: {}", who, e.getMessage());
    }
    return DeleteControl.noFinalizerRemoval().rescheduleAfter(cleanupBackoff.delay(attempt - 1).toMillis());
  }

  private DeleteControl deleted(RouterComparison rc, ResourceID id) {
    scheduler.leave(id);
    preflight.forget(id);
    cleanupAttempts.remove(id);
    actions.forgetAll(rc.getMetadata().getNamespace(), rc.getMetadata().getName());
    listeners.forEach(l -> l.removed(id));
    return DeleteControl.defaultDelete();
  }

  private static RunRef ref(RouterComparison rc, ArmStatus a) {
    return new RunRef(rc.getMetadata().getNamespace(), rc.getMetadata().getName(), a.name, a.runId);
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

  static boolean sameStatus(RouterComparisonStatus a, RouterComparisonStatus b) {
    return a != null && Mappers.json().valueToTree(a).equals(Mappers.json().valueToTree(b));
  }

  /** Stops the poller and the host actions (the operator calls this on shutdown). */
  public void close() {
    observations.close();
    actions.close();
    preflight.close();
  }
}
