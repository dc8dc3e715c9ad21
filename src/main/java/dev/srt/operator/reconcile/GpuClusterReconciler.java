package dev.srt.operator.reconcile;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterStatus;
import dev.srt.operator.config.Mappers;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.HostProbe;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
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
 * Keeps a GpuCluster's {@code Reachable} condition and host facts current. The probe (one remote
 * command) runs on the polling event source's thread, never the reconcile thread, and never throws:
 * a failure is a probe result too.
 */
@ControllerConfiguration(name = "gpucluster")
public class GpuClusterReconciler implements Reconciler<GpuCluster> {
  private static final Logger LOG = LoggerFactory.getLogger(GpuClusterReconciler.class);
  public static final String REACHABLE = "Reachable";

  /** What the last probe said. */
  public record ProbeResult(boolean reachable, String reason, String message, HostProbe.Facts facts, Instant at) {}

  private final Hosts hosts;
  private final Clock clock;
  private final Duration period;

  private final MeterRegistry metrics;

  public GpuClusterReconciler(Hosts hosts, Clock clock, Duration period, MeterRegistry metrics) {
    this.metrics = metrics;
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
        return Set.of(new ProbeResult(false, "SpecInvalid", errors.stream().map(Problem::describe).reduce((a, b) -> a + "; " + b).orElse(""), null, now));
      }
      RunHost host = hosts.forCluster(cluster);
      HostProbe.Facts facts = host.probe();
      return Set.of(new ProbeResult(true, "Connected", host.describe() + " answered", facts, now));
    } catch (HostException e) {
      String reason = switch (e.kind()) {
        case AUTH -> "AuthFailed";
        case HOST_KEY -> "HostKeyMismatch";
        case TIMEOUT -> "Timeout";
        case UNREACHABLE -> "Unreachable";
        case COMMAND_FAILED -> "slurm".equals(cluster.getSpec().mode) ? "SlurmUnavailable" : "ProbeFailed";
        default -> "HostError";
      };
      return Set.of(new ProbeResult(false, reason, e.getMessage(), null, now));
    } catch (RuntimeException e) {
      LOG.warn("GpuCluster {}/{}: probe error", cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), e);
      return Set.of(new ProbeResult(false, "ProbeError", String.valueOf(e.getMessage()), null, now));
    }
  }

  @Override
  public UpdateControl<GpuCluster> reconcile(GpuCluster cluster, Context<GpuCluster> context) {
    metrics.counter("srt_reconciles_total", "kind", "GpuCluster").increment();
    ProbeResult probe = context.getSecondaryResource(ProbeResult.class).orElse(null);
    GpuClusterStatus old = cluster.getStatus();
    GpuClusterStatus s = new GpuClusterStatus();
    s.observedGeneration = cluster.getMetadata().getGeneration();
    s.conditions = old == null || old.conditions == null ? new ArrayList<>() : new ArrayList<>(old.conditions.stream()
        .map(c -> new io.fabric8.kubernetes.api.model.Condition(c.getLastTransitionTime(), c.getMessage(),
            c.getObservedGeneration(), c.getReason(), c.getStatus(), c.getType())).toList());
    if (probe == null) {
      Conditions.set(s.conditions, REACHABLE, Conditions.UNKNOWN, "Probing", "first probe pending", s.observedGeneration, clock.instant());
    } else {
      Conditions.set(s.conditions, REACHABLE, probe.reachable() ? Conditions.TRUE : Conditions.FALSE, probe.reason(),
          probe.message(), s.observedGeneration, probe.at());
      s.lastProbeTime = probe.at().toString();
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
      PrimaryUpdateAndCacheUtils.updateStatusAndCacheResource(cluster, context, r -> {
        r.setStatus(s);
        return r;
      });
    }
    return UpdateControl.noUpdate();
  }


}
