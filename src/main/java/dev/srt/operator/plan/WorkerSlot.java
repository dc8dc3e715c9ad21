package dev.srt.operator.plan;

import java.util.List;

/**
 * Where worker {@code index} runs and which ports and GPUs it owns. A worker larger than a node
 * spans whole nodes: its leader runs on {@code node} (HTTP, KV events, the sidecar) and one
 * follower rank on each of {@code followerNodes}, all with the same GPUs of their node.
 */
public record WorkerSlot(int index, int node, List<Integer> gpus, PortMap ports, List<Integer> followerNodes) {
  public WorkerSlot {
    gpus = List.copyOf(gpus);
    followerNodes = List.copyOf(followerNodes);
  }

  public WorkerSlot(int index, int node, List<Integer> gpus, PortMap ports) {
    this(index, node, gpus, ports, List.of());
  }

  public String name() {
    return "worker-" + index;
  }

  public boolean multiNode() {
    return !followerNodes.isEmpty();
  }

  /** How many nodes the worker spans (SGLang's --nnodes). */
  public int nodeCount() {
    return 1 + followerNodes.size();
  }
}
