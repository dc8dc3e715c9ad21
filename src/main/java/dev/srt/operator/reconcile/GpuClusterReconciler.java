package dev.srt.operator.reconcile;

import dev.srt.operator.config.Echo;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.HostFailures;
import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.api.Api;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.GpuClusterStatus;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.HostProbe;
import io.fabric8.kubernetes.client.KubernetesClient;
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
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingConfigurationBuilder;
import io.javaoperatorsdk.operator.processing.event.source.polling.PerResourcePollingEventSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a GpuCluster's {@code Reachable} and {@code PrerequisitesMet} conditions and host facts
 * current ({@link ClusterPreflight}: the prerequisites every few minutes, not every probe). The probe (one remote
 * command) runs on the polling event source's thread, never the reconcile thread, and never throws:
 * a failure is a probe result too.
 *
 * <p>Its finalizer holds the GpuCluster (and so the host it names) while a RouterComparison still
 * has a run on it: deleting a namespace deletes both at once, and the comparisons' cleanup needs
 * the cluster to cancel their jobs.
 */
@ControllerConfiguration(name = "gpucluster", finalizerName = GpuClusterReconciler.FINALIZER)
public class GpuClusterReconciler implements Reconciler<GpuCluster>, Cleaner<GpuCluster> {
  private static final Logger LOG = LoggerFactory.getLogger(GpuClusterReconciler.class);
  public static final String REACHABLE = "Reachable";
  /** True while the cluster is being deleted and runs still use it. */
  public static final String IN_USE = "InUse";
  /** True while reconciles of the GpuCluster fail (reason ReconcileError); cleared by the next one that works. */
  public static final String DEGRADED = "Degraded";
  public static final String FINALIZER = Api.GROUP + "/wait-for-runs";
  static final Duration IN_USE_RECHECK = Duration.ofSeconds(5);

  /** What the last probe said; {@code prerequisites} null when the host was not reached. */
  public record ProbeResult(boolean reachable, ConditionReason reason, String message, HostProbe.Facts facts, Instant at,
      PrerequisiteCondition prerequisites) {
    public ProbeResult(boolean reachable, ConditionReason reason, String message, HostProbe.Facts facts, Instant at) {
      this(reachable, reason, message, facts, at, null);
    }
  }

  private final Hosts hosts;
  private final Clock clock;
  private final Duration period;

  private final MeterRegistry metrics;
  private final KubernetesClient client;
  private final ClusterPolicy policy;
  private final ClusterReachability reachability;
  private final ClusterPreflight preflight = new ClusterPreflight(ComparisonPreflight.EVERY);

  public GpuClusterReconciler(KubernetesClient client, Hosts hosts, ClusterPolicy policy, Clock clock, Duration period,
      MeterRegistry metrics) {
    this.client = client;
    this.policy = policy;
    this.metrics = metrics;
    this.reachability = new ClusterReachability(metrics);
    this.hosts = hosts;
    this.clock = clock;
    this.period = period;
  }

  @Override
  public List<EventSource<?, GpuCluster>> prepareEventSources(EventSourceContext<GpuCluster> context) {
    // One probe result per cluster: its id is constant.
    var config = new PerResourcePollingConfigurationBuilder<ProbeResult, GpuCluster, String>(this::probe, period)
        .withResourceIDMapper(r -> "probe").build();
    return List.of(new PerResourcePollingEventSource<>(ProbeResult.class, context, config));
  }

  /** Never throws: an exception here would silently stop polling this cluster. */
  Set<ProbeResult> probe(GpuCluster cluster) {
    Instant now = clock.instant();
    try {
      List<Problem> errors = Validator.validate(cluster).stream().filter(Problem::isError).toList();
      if (!errors.isEmpty()) {
        return Set.of(new ProbeResult(false, ConditionReason.ClusterInvalid, errors.stream().map(Problem::describe).reduce((a, b) -> a + "; " + b).orElse(""), null, now));
      }
      var refusal = policy.refusal(cluster);
      if (refusal.isPresent()) {
        return Set.of(new ProbeResult(false, refusal.get().reason(), refusal.get().message(), null, now));
      }
      RunHost host = hosts.forCluster(cluster);
      HostProbe.Facts facts = host.probe();
      PrerequisiteCondition prerequisites = preflight.check(policy.preparer().prepare(cluster), host, now);
      return Set.of(new ProbeResult(true, ConditionReason.Connected, host.describe() + " answered", facts, now, prerequisites));
    } catch (ClusterSecretException e) {
      return Set.of(new ProbeResult(false, e.reason(), e.getMessage(), null, now));
    } catch (HostException e) {
      return Set.of(new ProbeResult(false, HostFailures.reason(e.kind(), cluster.getSpec().mode()), e.getMessage(), null, now));
    } catch (RuntimeException e) {
      LOG.warn("GpuCluster {}/{}: probe error", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), e);
      return Set.of(new ProbeResult(false, ConditionReason.ProbeError, String.valueOf(e.getMessage()), null, now));
    }
  }

  /**
   * A reconcile that threw shows in the GpuCluster's status too, as in a comparison's: Degraded
   * with reason ReconcileError and the error's message. JOSDK retries with backoff.
   */
  @Override
  public ErrorStatusUpdateControl<GpuCluster> updateErrorStatus(GpuCluster cluster, Context<GpuCluster> context, Exception e) {
    String message = Echo.value(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    LOG.warn("GpuCluster {}/{}: reconcile failed: {}", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), message, e);
    GpuClusterStatus s = cluster.getStatus() == null ? new GpuClusterStatus()
        : Mappers.json().convertValue(cluster.getStatus(), GpuClusterStatus.class);
    Conditions.set(s.conditions, DEGRADED, Conditions.TRUE, ConditionReason.ReconcileError, "reconcile failed (retrying): " + message,
        cluster.getMetadata().getGeneration(), clock.instant());
    cluster.setStatus(s);
    return ErrorStatusUpdateControl.patchStatus(cluster);
  }

  @Override
  public UpdateControl<GpuCluster> reconcile(GpuCluster cluster, Context<GpuCluster> context) {
    metrics.counter("srt_reconciles_total", "kind", "GpuCluster").increment();
    ProbeResult probe = context.getSecondaryResource(ProbeResult.class).orElse(null);
    reachability.record(ResourceID.fromResource(cluster), probe == null ? null : probe.reachable());
    GpuClusterStatus old = cluster.getStatus();
    GpuClusterStatus s = new GpuClusterStatus();
    s.observedGeneration = cluster.getMetadata().getGeneration();
    s.conditions = old == null || old.conditions == null ? new ArrayList<>() : new ArrayList<>(old.conditions.stream()
        .map(c -> new io.fabric8.kubernetes.api.model.Condition(c.getLastTransitionTime(), c.getMessage(),
            c.getObservedGeneration(), c.getReason(), c.getStatus(), c.getType())).toList());
    s.conditions.removeIf(c -> DEGRADED.equals(c.getType()));
    if (probe == null) {
      Conditions.set(s.conditions, REACHABLE, Conditions.UNKNOWN, ConditionReason.Probing, "first probe pending", s.observedGeneration, clock.instant());
    } else {
      Conditions.set(s.conditions, REACHABLE, probe.reachable() ? Conditions.TRUE : Conditions.FALSE, probe.reason(),
          probe.message(), s.observedGeneration, probe.at());
      s.lastProbeTime = probe.at().toString();
      PrerequisiteCondition.set(s.conditions, probe.prerequisites(), s.observedGeneration, probe.at());
      if (probe.facts() != null) {
        s.slurmVersion = probe.facts().slurmVersion();
        s.partitions = probe.facts().partitions();
        s.gpus = probe.facts().gpus();
      } else if (old != null) {
        s.slurmVersion = old.slurmVersion;
        s.partitions = old.partitions;
        s.gpus = old.gpus;
      }
    }
    if (old == null || !Mappers.json().valueToTree(old).equals(Mappers.json().valueToTree(s))) {
      LOG.info("GpuCluster {}/{}: {}", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(),
          probe == null ? "probing" : probe.reason() + ": " + probe.message());
      writeStatus(cluster, context, s);
    }
    return UpdateControl.noUpdate();
  }

  /**
   * Lets the GpuCluster go once no RouterComparison of its namespace has a run on it. Comparisons
   * being deleted with it cancel their runs through it first; a comparison that stays keeps running
   * what it started and starts nothing new on a cluster being deleted.
   */
  @Override
  public DeleteControl cleanup(GpuCluster cluster, Context<GpuCluster> context) {
    String ns = cluster.getMetadata().getNamespace();
    List<String> runs;
    try {
      runs = runsOn(cluster.getMetadata().getName(), client.resources(RouterComparison.class).inNamespace(ns).list().getItems());
    } catch (RuntimeException e) {
      LOG.warn("GpuCluster {}/{}: cannot list RouterComparisons before deletion: {}", ns, cluster.getMetadata().getName(), e.getMessage());
      return DeleteControl.noFinalizerRemoval().rescheduleAfter(IN_USE_RECHECK);
    }
    if (runs.isEmpty()) {
      reachability.remove(ResourceID.fromResource(cluster));
      preflight.forget(cluster);
      return DeleteControl.defaultDelete();
    }
    GpuClusterStatus s = cluster.getStatus() == null ? new GpuClusterStatus() : Mappers.json().convertValue(cluster.getStatus(), GpuClusterStatus.class);
    String message = "waiting for " + runs.size() + " run(s) before deletion: " + String.join(", ", runs.subList(0, Math.min(runs.size(), 5)))
        + (runs.size() > 5 ? ", ..." : "");
    var before = Conditions.find(s.conditions, IN_USE);
    Conditions.set(s.conditions, IN_USE, Conditions.TRUE, ConditionReason.RunsInFlight, message, cluster.getMetadata().getGeneration(), clock.instant());
    if (before == null || !message.equals(before.getMessage())) {
      LOG.info("GpuCluster {}/{}: {}", ns, cluster.getMetadata().getName(), message);
      try {
        writeStatus(cluster, context, s);
      } catch (RuntimeException e) {
        LOG.warn("GpuCluster {}/{}: cannot write status during deletion: {}", ns, cluster.getMetadata().getName(), e.getMessage());
      }
    }
    return DeleteControl.noFinalizerRemoval().rescheduleAfter(IN_USE_RECHECK);
  }

  /** "comparison/arm (run id)" of every run that still uses the cluster {@code clusterName}. */
  static List<String> runsOn(String clusterName, List<RouterComparison> comparisons) {
    List<String> out = new ArrayList<>();
    for (RouterComparison rc : comparisons) {
      if (rc.getSpec() == null || rc.getSpec().clusterRef == null || !clusterName.equals(rc.getSpec().clusterRef.name)
          || rc.getStatus() == null || rc.getStatus().arms == null) {
        continue;
      }
      for (ArmStatus a : rc.getStatus().arms) {
        // A recorded run id may have been submitted already (the record comes first): it counts.
        boolean holds = ArmRuns.holdsHost(a);
        if (holds) {
          out.add(rc.getMetadata().getName() + "/" + a.name + " (" + a.runId + ")");
        }
      }
    }
    return out;
  }

  protected void writeStatus(GpuCluster cluster, Context<GpuCluster> context, GpuClusterStatus status) {
    PrimaryUpdateAndCacheUtils.updateStatusAndCacheResource(cluster, context, r -> {
      r.setStatus(status);
      return r;
    });
  }


}
