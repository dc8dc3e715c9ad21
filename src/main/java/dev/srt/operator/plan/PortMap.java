package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.srt.operator.api.Limits;
import dev.srt.operator.config.PortTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The deterministic ports of one worker ({@link PortTable}, srt-slurm's port table): HTTP {@code
 * 6100 + 32k} for the k-th worker on its node; KV events {@code 5200 + i}, Dynamo system {@code
 * 7500 + i}, NCCL {@code 17500 + i} and sidecar gRPC {@code sidecarBase + i} for the i-th worker of
 * the run; a prefill worker also SGLang's disaggregation bootstrap port {@code 7200 + k} for the
 * k-th prefill worker on its node (null for the others).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PortMap(int http, int kvEvents, int system, int nccl, int grpc, Integer bootstrap) {
  public static final int HTTP_BASE = PortTable.HTTP_BASE;
  public static final int HTTP_STRIDE = PortTable.HTTP_STRIDE;
  public static final int KV_EVENTS_BASE = PortTable.KV_EVENTS_BASE;
  public static final int SYSTEM_BASE = PortTable.SYSTEM_BASE;
  public static final int NCCL_BASE = PortTable.NCCL_BASE;
  public static final int SIDECAR_GRPC_BASE = PortTable.SIDECAR_GRPC_BASE;
  public static final int ROUTER = PortTable.ROUTER;
  /** A multi-node worker's torch distributed rendezvous, on its leader node (--dist-init-addr). */
  public static final int DIST_INIT = PortTable.DIST_INIT;

  public static final int BOOTSTRAP_BASE = PortTable.BOOTSTRAP_BASE;

  public PortMap(int http, int kvEvents, int system, int nccl, int grpc) {
    this(http, kvEvents, system, nccl, grpc, null);
  }

  public static PortMap forWorker(int indexInRun, int indexOnNode, int sidecarBase) {
    return new PortMap(
        HTTP_BASE + HTTP_STRIDE * indexOnNode,
        KV_EVENTS_BASE + indexInRun,
        SYSTEM_BASE + indexInRun,
        NCCL_BASE + indexInRun,
        sidecarBase + indexInRun);
  }

  /** {@link #forWorker} plus the bootstrap port of the {@code prefillOnNode}-th prefill worker of its node. */
  public static PortMap forPrefill(int indexInRun, int indexOnNode, int prefillOnNode, int sidecarBase) {
    PortMap p = forWorker(indexInRun, indexOnNode, sidecarBase);
    return new PortMap(p.http, p.kvEvents, p.system, p.nccl, p.grpc, BOOTSTRAP_BASE + prefillOnNode);
  }

  /**
   * Fails when two processes of the run would bind one port of one node, or a port falls outside
   * 1..65535. Every rank of a worker gets the worker's five ports on its node (the slot holds all
   * five whether or not the arm uses them); the router takes {@link #ROUTER} on node 0 and each
   * multi-node leader {@link #DIST_INIT}. The validator keeps a valid spec from getting here: this
   * is the planner's own guard, so that no plan ever starts two processes on one port.
   */
  static void requireDistinct(List<WorkerSlot> workers) {
    Map<Integer, Map<Integer, String>> byNode = new TreeMap<>();
    take(byNode, 0, ROUTER, "router");
    for (WorkerSlot w : workers) {
      Map<String, Integer> ports = new LinkedHashMap<>();
      ports.put("http", w.ports().http());
      ports.put("kvEvents", w.ports().kvEvents());
      ports.put("system", w.ports().system());
      ports.put("nccl", w.ports().nccl());
      ports.put("grpc", w.ports().grpc());
      if (w.ports().bootstrap() != null) {
        ports.put("bootstrap", w.ports().bootstrap());
      }
      List<Integer> nodes = new java.util.ArrayList<>(List.of(w.node()));
      nodes.addAll(w.followerNodes());
      for (int node : nodes) {
        ports.forEach((use, port) -> take(byNode, node, port, w.name() + " " + use));
      }
      if (w.multiNode()) {
        take(byNode, w.node(), DIST_INIT, w.name() + " rendezvous");
      }
    }
  }

  private static void take(Map<Integer, Map<Integer, String>> byNode, int node, int port, String use) {
    if (port < Limits.MIN_PORT || port > Limits.MAX_PORT) {
      throw new IllegalArgumentException("port plan: " + use + " port " + port + " on node " + node
          + " is outside " + Limits.MIN_PORT + ".." + Limits.MAX_PORT);
    }
    String other = byNode.computeIfAbsent(node, n -> new TreeMap<>()).putIfAbsent(port, use);
    if (other != null) {
      throw new IllegalArgumentException("port plan: " + use + " and " + other + " would share port " + port
          + " on node " + node);
    }
  }
}
