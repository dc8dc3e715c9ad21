package dev.srt.operator.plan;

import dev.srt.operator.api.ResourcesSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Aggregated workers packed onto nodes in order: partial-node workers share a node sequentially
 * (worker 0 gets GPUs 0-3, worker 1 GPUs 4-7 on an 8-GPU node).
 */
public record Topology(int nodes, int gpusPerNode, int gpusPerWorker, List<WorkerSlot> workers) {

  public static Topology aggregated(ResourcesSpec r, int gpusPerNode, int sidecarBase) {
    int nodes = r.aggNodes == null ? 1 : r.aggNodes;
    int count = r.aggWorkers;
    int perWorker = r.gpusPerWorker != null ? r.gpusPerWorker : Math.max(1, nodes * gpusPerNode / count);
    int perNode = Math.max(1, gpusPerNode / perWorker);
    List<WorkerSlot> slots = new ArrayList<>();
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
