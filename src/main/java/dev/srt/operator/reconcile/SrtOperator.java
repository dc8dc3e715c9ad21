package dev.srt.operator.reconcile;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;

/**
 * The operator: both reconcilers registered with JOSDK, sharing one set of host connections.
 * Status is written with JSON merge patches (no server-side apply), which every API server and the
 * Fabric8 mock server accept.
 */
public final class SrtOperator implements AutoCloseable {
  /** What can be tuned from the command line. */
  public record Settings(Set<String> namespaces, String leaderElectionNamespace, Duration clusterProbeInterval,
      Duration startingPollInterval, ClusterPolicy policy) {
    public static Settings defaults() {
      return new Settings(Set.of(), null, Duration.ofSeconds(30), Duration.ofSeconds(1), new ClusterPolicy(false));
    }
  }

  private final Operator operator;
  private volatile boolean closing;
  private final Hosts hosts;
  private final RouterComparisonReconciler comparisons;

  public SrtOperator(KubernetesClient client, Hosts hosts, MeterRegistry metrics, Settings settings) {
    this.hosts = hosts;
    Clock clock = Clock.systemUTC();
    this.operator = new Operator(o -> {
      o.withKubernetesClient(client).withUseSSAToPatchPrimaryResource(false).withCloseClientOnStop(false)
          // JOSDK's reconcile timers and counters, per controller: per-resource series would grow
          // with the number of comparisons and outlive them.
          .withMetrics(new ReconcileMetrics(MicrometerMetrics.withoutPerResourceMetrics(metrics), metrics));
      if (settings.leaderElectionNamespace() != null) {
        // Losing the lease while running ends the process (a restarted pod campaigns again); losing
        // it because we are shutting down must not call System.exit from the shutdown hook.
        LeaderCallbacks callbacks = new LeaderCallbacks(() -> { }, () -> {
          if (!closing) {
            new Thread(() -> System.exit(1), "srt-operator-lost-lease").start();
          }
        }, leader -> { });
        o.withLeaderElectionConfiguration(new LeaderElectionConfiguration("srt-operator", settings.leaderElectionNamespace(),
            LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE, LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE,
            LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE, null, callbacks, false));
      }
    });
    EventRecorder events = new EventRecorder(client);
    this.comparisons = new RouterComparisonReconciler(client, hosts, settings.policy(), events, clock, settings.startingPollInterval(), metrics);
    operator.register(comparisons, c -> {
      if (!settings.namespaces().isEmpty()) {
        c.settingNamespaces(settings.namespaces());
      }
    });
    operator.register(new GpuClusterReconciler(client, hosts, settings.policy(), clock, settings.clusterProbeInterval(), metrics), c -> {
      if (!settings.namespaces().isEmpty()) {
        c.settingNamespaces(settings.namespaces());
      }
    });
    Gauge.builder("srt_runs_in_flight", comparisons.observations(), RunObservations::trackedCount)
        .description("Runs submitted and not yet ended, observed on GPU hosts").register(metrics);
  }

  public void start() {
    operator.start();
  }

  public boolean started() {
    return operator.getRuntimeInfo().isStarted();
  }

  /** All informers and event sources are healthy. */
  public boolean healthy() {
    return operator.getRuntimeInfo().isStarted() && operator.getRuntimeInfo().allEventSourcesAreHealthy();
  }

  @Override
  public void close() {
    closing = true;
    operator.stop();
    comparisons.close();
    hosts.close();
  }

}
