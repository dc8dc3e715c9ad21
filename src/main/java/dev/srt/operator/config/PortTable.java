package dev.srt.operator.config;

import java.util.ArrayList;
import java.util.List;

/**
 * srt-slurm's port table: the port ranges a run binds on a host, by purpose. {@code plan/PortMap}
 * hands them out per worker; the validator checks that the one configurable range (the sidecar
 * gRPC ports) stays clear of the others. It lives here, not in {@code plan}, because the validator
 * must not depend on the planner.
 *
 * <p>Worker k of a node serves HTTP on {@code 6100 + 32k}; the stride leaves each engine room for
 * the helper ports SGLang opens next to its own. Worker i of the run owns {@code 5200 + i} (KV
 * events), {@code 7500 + i} (Dynamo system), {@code 17500 + i} (NCCL) and {@code sidecarPort + i}
 * (sidecar gRPC). In a prefill/decode topology the prefill workers come first in the run's order,
 * and the k-th prefill worker of a node also owns {@code 7200 + k} (SGLang's disaggregation
 * bootstrap server, srt-slurm's port). With at most {@link dev.srt.operator.api.Limits#MAX_WORKERS} workers and
 * {@link dev.srt.operator.api.Limits#MAX_GPUS_PER_NODE} workers per node the fixed ranges never
 * meet; 901 workers would put KV events on 6100. A router kind's own further ports
 * ({@link FrontendRules#routerPorts}, the Model Gateway's Prometheus listener) join the fixed
 * ranges. A Dynamo arm's etcd and NATS ({@link #infra})
 * take their ports from the GpuCluster (2379, 2380, 4222 and 8222 by default), on the first node.
 */
public final class PortTable {
  public static final int HTTP_BASE = 6100;
  public static final int HTTP_STRIDE = 32;
  public static final int KV_EVENTS_BASE = 5200;
  public static final int SYSTEM_BASE = 7500;
  public static final int NCCL_BASE = 17500;
  public static final int SIDECAR_GRPC_BASE = 50051;
  public static final int ROUTER = 8000;
  /** A multi-node worker's torch distributed rendezvous, on its leader node (--dist-init-addr). */
  public static final int DIST_INIT = 8300;
  /** The k-th prefill worker of a node serves SGLang's KV-transfer bootstrap on 7200 + k. */
  public static final int BOOTSTRAP_BASE = 7200;

  private PortTable() {}

  /** The ports {@code first..last} (both included) used for one purpose. */
  public record Block(String purpose, long first, long last) {
    public boolean overlaps(Block other) {
      return first <= other.last && other.first <= last;
    }

    /** {@code 6100-6163}, or {@code 8000} for a single port. */
    public String range() {
      return first == last ? String.valueOf(first) : first + "-" + last;
    }
  }

  /**
   * The fixed ranges of a run of {@code workers} workers with at most {@code perNode} of them on
   * one node: everything but the sidecar gRPC range. Longs, so no count can wrap around.
   */
  public static List<Block> fixed(long workers, long perNode) {
    List<Block> out = new ArrayList<>();
    out.add(new Block("KV-event ports", KV_EVENTS_BASE, KV_EVENTS_BASE + workers - 1));
    out.add(new Block("worker HTTP ports", HTTP_BASE, HTTP_BASE + HTTP_STRIDE * perNode - 1));
    out.add(new Block("Dynamo system ports", SYSTEM_BASE, SYSTEM_BASE + workers - 1));
    out.add(new Block("router port", ROUTER, ROUTER));
    out.add(new Block("multi-node rendezvous port", DIST_INIT, DIST_INIT));
    out.add(new Block("NCCL ports", NCCL_BASE, NCCL_BASE + workers - 1));
    FrontendRules.all().values().forEach(kind -> out.addAll(kind.routerPorts()));
    return out;
  }

  /**
   * As {@link #fixed(long, long)} for a prefill/decode topology whose nodes hold at most {@code
   * prefillPerNode} prefill workers: their bootstrap ports too.
   */
  public static List<Block> fixed(long workers, long perNode, long prefillPerNode) {
    List<Block> out = fixed(workers, perNode);
    out.add(new Block("prefill bootstrap ports", BOOTSTRAP_BASE, BOOTSTRAP_BASE + prefillPerNode - 1));
    return out;
  }

  /**
   * The ports of the services a Dynamo arm starts on its first node (GpuCluster spec.infra, by
   * field name): etcd always with etcd discovery, NATS only when a plane uses it.
   */
  public static List<Block> infra(java.util.Map<String, Integer> ports, boolean etcd, boolean nats) {
    List<Block> out = new ArrayList<>();
    ports.forEach((field, port) -> {
      boolean used = field.startsWith("etcd") ? etcd : nats;
      if (used) {
        out.add(new Block(INFRA_PURPOSE.get(field) + " (spec.infra." + field + ")", port, port));
      }
    });
    return out;
  }

  private static final java.util.Map<String, String> INFRA_PURPOSE = java.util.Map.of(
      "etcdClientPort", "etcd client port", "etcdPeerPort", "etcd peer port",
      "natsPort", "NATS client port", "natsMonitorPort", "NATS monitoring port");

  /** The sidecar gRPC ports of {@code workers} workers from {@code base}. */
  public static Block sidecar(long base, long workers) {
    return new Block("sidecar gRPC ports", base, base + workers - 1);
  }
}
