package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunHost;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.host.HostException;
import dev.srt.operator.plan.Prerequisites;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The GpuClusters' {@code PrerequisitesMet}: what every run on the cluster needs
 * ({@link Prerequisites#ofCluster}), looked for on the host from the cluster's probe, when the
 * cluster changed and otherwise every {@link ComparisonPreflight#EVERY}, not every probe.
 */
final class ClusterPreflight {
  private record Checked(String key, Instant at, PrerequisiteCondition condition) {}

  private final Duration every;
  private final Map<String, Checked> checked = new ConcurrentHashMap<>();

  ClusterPreflight(Duration every) {
    this.every = every;
  }

  /**
   * The condition of {@code cluster} (as prepared for runs: the emulated host's shims on its path)
   * whose host is {@code host}: the last check's, or a new check's when that one is stale; null
   * for a host that cannot be checked.
   */
  PrerequisiteCondition check(GpuCluster cluster, RunHost host, Instant now) {
    if (!host.checksPrerequisites()) {
      return null;
    }
    String uid = cluster.getMetadata().getUid() != null ? cluster.getMetadata().getUid()
        : cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName();
    String key = ComparisonPreflight.specKey(cluster.getSpec());
    Checked last = checked.get(uid);
    if (last != null && last.key().equals(key) && Duration.between(last.at(), now).compareTo(every) < 0) {
      return last.condition();
    }
    PrerequisiteCondition condition;
    try {
      condition = PrerequisiteCondition.of(host.check(Prerequisites.ofCluster(cluster.getSpec()), cluster.getSpec().path,
          cluster.getSpec().env), host.describe());
    } catch (HostException e) {
      condition = PrerequisiteCondition.failed(e);
    }
    checked.put(uid, new Checked(key, now, condition));
    return condition;
  }

  /** The cluster is gone. */
  void forget(GpuCluster cluster) {
    checked.remove(cluster.getMetadata().getUid() != null ? cluster.getMetadata().getUid()
        : cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName());
  }
}
