package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Where worker {@code index} (of the run, prefill workers first) runs and which ports and GPUs it
 * owns. A worker larger than a node spans whole nodes: its leader runs on {@code node} (HTTP, KV
 * events, the sidecar) and one follower rank on each of {@code followerNodes}, all with the same
 * GPUs of their node. In a prefill/decode topology {@code role} is its role and {@code roleIndex}
 * its index among the workers of that role; both are null for an aggregated worker.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkerSlot(int index, int node, List<Integer> gpus, PortMap ports, List<Integer> followerNodes,
    WorkerRole role, Integer roleIndex) {
  public WorkerSlot {
    gpus = List.copyOf(gpus);
    followerNodes = List.copyOf(followerNodes);
  }

  public WorkerSlot(int index, int node, List<Integer> gpus, PortMap ports, List<Integer> followerNodes) {
    this(index, node, gpus, ports, followerNodes, null, null);
  }

  public WorkerSlot(int index, int node, List<Integer> gpus, PortMap ports) {
    this(index, node, gpus, ports, List.of());
  }

  /** {@code worker-0}; in a prefill/decode topology {@code worker-prefill-0}, {@code worker-decode-0}. */
  public String name() {
    return process("worker");
  }

  /** The name of one of its processes: {@code engine-0}, {@code sidecar-prefill-0}. */
  public String process(String kind) {
    return role == null ? kind + "-" + index : kind + "-" + role.id() + "-" + roleIndex;
  }

  public boolean multiNode() {
    return !followerNodes.isEmpty();
  }

  /** How many nodes the worker spans (SGLang's --nnodes). */
  public int nodeCount() {
    return 1 + followerNodes.size();
  }
}
