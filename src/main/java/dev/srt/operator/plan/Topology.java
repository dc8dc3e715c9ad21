package dev.srt.operator.plan;

import dev.srt.operator.api.Limits;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.config.WorkerFit;
import java.util.ArrayList;
import java.util.List;

/**
 * Aggregated workers packed onto nodes in order: partial-node workers share a node sequentially
 * (worker 0 gets GPUs 0-3, worker 1 GPUs 4-7 on an 8-GPU node); a worker larger than a node takes
 * whole consecutive nodes (16 GPUs on 8-GPU nodes: worker 0 on nodes 0-1, worker 1 on nodes 2-3).
 */
public record Topology(int nodes, int gpusPerNode, int gpusPerWorker, List<WorkerSlot> workers) {

  /**
   * Packs the workers of {@code r}, which must have passed the validator. Counts beyond {@link
   * Limits} are refused before anything is allocated, and a plan in which two processes would share
   * a port of one node is refused too: neither can come from a valid spec.
   */
  public static Topology aggregated(ResourcesSpec r, int gpusPerNode, int sidecarBase) {
    int nodes = r.aggNodes == null ? 1 : r.aggNodes;
    int count = r.aggWorkers;
    within("aggWorkers", count, Limits.MAX_WORKERS);
    within("aggNodes", nodes, Limits.MAX_NODES);
    within("gpusPerNode", gpusPerNode, Limits.MAX_GPUS_PER_NODE);
    int perWorker = (int) Math.max(1, WorkerFit.of(r, gpusPerNode).gpusPerWorker());
    within("gpusPerWorker", perWorker, Limits.MAX_GPUS_PER_WORKER);
    Topology t = pack(nodes, count, perWorker, gpusPerNode, sidecarBase);
    PortMap.requireDistinct(t.workers());
    return t;
  }

  private static void within(String what, int value, int max) {
    if (value < 1 || value > max) {
      throw new IllegalArgumentException(what + " " + value + " is outside 1.." + max + "; the validator rejects such a spec");
    }
  }

  private static Topology pack(int nodes, int count, int perWorker, int gpusPerNode, int sidecarBase) {
    List<WorkerSlot> slots = new ArrayList<>();
    if (perWorker > gpusPerNode) {
      int span = perWorker / gpusPerNode;
      List<Integer> allGpus = new ArrayList<>();
      for (int g = 0; g < gpusPerNode; g++) {
        allGpus.add(g);
      }
      for (int i = 0; i < count; i++) {
        List<Integer> followers = new ArrayList<>();
        for (int n = 1; n < span; n++) {
          followers.add(i * span + n);
        }
        slots.add(new WorkerSlot(i, i * span, allGpus, PortMap.forWorker(i, 0, sidecarBase), followers));
      }
      return new Topology(nodes, gpusPerNode, perWorker, List.copyOf(slots));
    }
    int perNode = (int) new WorkerFit(nodes, gpusPerNode, count, perWorker).workersPerNode();
    for (int i = 0; i < count; i++) {
      int node = i / perNode;
      int onNode = i % perNode;
      List<Integer> gpus = new ArrayList<>();
      for (int g = 0; g < perWorker; g++) {
        gpus.add(onNode * perWorker + g);
      }
      slots.add(new WorkerSlot(i, node, gpus, PortMap.forWorker(i, onNode, sidecarBase)));
    }
    return new Topology(nodes, gpusPerNode, perWorker, List.copyOf(slots));
  }

  /** GPUs of one node that the run uses (what the Slurm job asks for per node). */
  public int gpusUsedPerNode() {
    return workers.stream().filter(w -> w.node() == 0).mapToInt(w -> w.gpus().size()).sum();
  }

  /** CUDA_VISIBLE_DEVICES is set only when a worker uses part of a node. */
  public boolean partialNodeWorkers() {
    return gpusPerWorker < gpusPerNode;
  }
}
