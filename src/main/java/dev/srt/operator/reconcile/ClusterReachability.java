package dev.srt.operator.reconcile;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code srt_cluster_reachable{namespace, cluster}}: 1 when a GpuCluster's host answered its last
 * probe, 0 when it did not (its {@code Reachable} condition); no series before the first probe
 * and after the GpuCluster is gone. The {@code SrtClusterUnreachable} alert fires on 0 for five
 * minutes.
 */
final class ClusterReachability {
  static final String NAME = "srt_cluster_reachable";

  private final MultiGauge gauge;
  private final Map<ResourceID, Boolean> reachable = new ConcurrentHashMap<>();

  ClusterReachability(MeterRegistry registry) {
    this.gauge = MultiGauge.builder(NAME).description("1 if the GpuCluster's host answered its last probe, 0 if not").register(registry);
  }

  /** What the last probe said; null: not probed yet. */
  void record(ResourceID cluster, Boolean answered) {
    Boolean before = answered == null ? reachable.remove(cluster) : reachable.put(cluster, answered);
    if (!java.util.Objects.equals(before, answered)) {
      publish();
    }
  }

  void remove(ResourceID cluster) {
    record(cluster, null);
  }

  private synchronized void publish() {
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    reachable.forEach((id, up) -> rows.add(MultiGauge.Row.of(Tags.of("namespace", id.getNamespace().orElse(""), "cluster", id.getName()),
        up ? 1 : 0)));
    gauge.register(rows, true);
  }
}
