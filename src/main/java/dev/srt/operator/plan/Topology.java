package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.srt.operator.api.Limits;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.config.DisaggregatedFit;
import dev.srt.operator.config.WorkerFit;
import java.util.ArrayList;
import java.util.List;

/**
 * Workers packed onto nodes in order: partial-node workers share a node sequentially (worker 0
 * gets GPUs 0-3, worker 1 GPUs 4-7 on an 8-GPU node); a worker larger than a node takes whole
 * consecutive nodes (16 GPUs on 8-GPU nodes: worker 0 on nodes 0-1, worker 1 on nodes 2-3). A
 * prefill/decode topology packs its prefill workers first, then its decode workers, either on
 * nodes of their own or after the prefill workers on one shared node ({@link DisaggregatedFit});
 * {@code gpusPerWorker} is then null and {@code gpusPerPrefill}/{@code gpusPerDecode} are set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Topology(int nodes, int gpusPerNode, Integer gpusPerWorker, Integer gpusPerPrefill, Integer gpusPerDecode,
    List<WorkerSlot> workers) {

  public Topology(int nodes, int gpusPerNode, int gpusPerWorker, List<WorkerSlot> workers) {
    this(nodes, gpusPerNode, gpusPerWorker, null, null, workers);
  }

  /** The topology of {@code r}, aggregated or prefill/decode. */
  public static Topology of(ResourcesSpec r, int gpusPerNode, int sidecarBase) {
    return r.disaggregated() ? disaggregated(r, gpusPerNode, sidecarBase) : aggregated(r, gpusPerNode, sidecarBase);
  }

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
    Packer packer = new Packer(gpusPerNode, sidecarBase);
    packer.pack(null, count, perWorker, 0);
    Topology t = new Topology(nodes, gpusPerNode, perWorker, List.copyOf(packer.slots));
    PortMap.requireDistinct(t.workers());
    return t;
  }

  /** As {@link #aggregated}, for a prefill/decode topology: prefill workers first, then decode. */
  public static Topology disaggregated(ResourcesSpec r, int gpusPerNode, int sidecarBase) {
    within("prefillWorkers", r.prefillWorkers, Limits.MAX_WORKERS);
    within("decodeWorkers", r.decodeWorkers, Limits.MAX_WORKERS);
    within("gpusPerNode", gpusPerNode, Limits.MAX_GPUS_PER_NODE);
    DisaggregatedFit fit = DisaggregatedFit.of(r, gpusPerNode);
    within("prefillNodes", (int) fit.prefill().nodes(), Limits.MAX_NODES);
    within("decodeNodes", (int) fit.decode().nodes(), Limits.MAX_NODES);
    int perPrefill = (int) Math.max(1, fit.prefill().gpusPerWorker());
    int perDecode = (int) Math.max(1, fit.decode().gpusPerWorker());
    within("gpusPerPrefill", perPrefill, Limits.MAX_GPUS_PER_WORKER);
    within("gpusPerDecode", perDecode, Limits.MAX_GPUS_PER_WORKER);
    Packer packer = new Packer(gpusPerNode, sidecarBase);
    packer.pack(WorkerRole.PREFILL, r.prefillWorkers, perPrefill, 0);
    packer.pack(WorkerRole.DECODE, r.decodeWorkers, perDecode, (int) fit.decodeFirstNode());
    Topology t = new Topology((int) fit.nodes(), gpusPerNode, null, perPrefill, perDecode, List.copyOf(packer.slots));
    PortMap.requireDistinct(t.workers());
    return t;
  }

  private static void within(String what, int value, int max) {
    if (value < 1 || value > max) {
      throw new IllegalArgumentException(what + " " + value + " is outside 1.." + max + "; the validator rejects such a spec");
    }
  }

  /**
   * Hands out nodes, GPUs and ports in the run's worker order. The HTTP port counts the workers of
   * a node, the bootstrap port its prefill workers, every other port the workers of the run.
   */
  private static final class Packer {
    final int gpusPerNode;
    final int sidecarBase;
    final List<WorkerSlot> slots = new ArrayList<>();
    final java.util.Map<Integer, Integer> onNode = new java.util.HashMap<>();
    final java.util.Map<Integer, Integer> prefillOnNode = new java.util.HashMap<>();
    int nextNode;
    int gpuOffset;

    Packer(int gpusPerNode, int sidecarBase) {
      this.gpusPerNode = gpusPerNode;
      this.sidecarBase = sidecarBase;
    }

    /** {@code count} workers of {@code role} with {@code perWorker} GPUs each, from node {@code firstNode}. */
    void pack(WorkerRole role, int count, int perWorker, int firstNode) {
      if (firstNode > nextNode) {
        // A role with nodes of its own starts on them, whatever the previous role left free.
        nextNode = firstNode;
        gpuOffset = 0;
      }
      for (int i = 0; i < count; i++) {
        List<Integer> gpus = new ArrayList<>();
        List<Integer> followers = new ArrayList<>();
        if (perWorker > gpusPerNode) {
          for (int g = 0; g < gpusPerNode; g++) {
            gpus.add(g);
          }
          int span = perWorker / gpusPerNode;
          for (int n = 1; n < span; n++) {
            followers.add(nextNode + n);
          }
          add(role, i, nextNode, gpus, followers);
          nextNode += span;
          continue;
        }
        if (gpuOffset + perWorker > gpusPerNode) {
          nextNode++;
          gpuOffset = 0;
        }
        for (int g = 0; g < perWorker; g++) {
          gpus.add(gpuOffset + g);
        }
        add(role, i, nextNode, gpus, followers);
        gpuOffset += perWorker;
        if (gpuOffset == gpusPerNode) {
          nextNode++;
          gpuOffset = 0;
        }
      }
    }

    private void add(WorkerRole role, int roleIndex, int node, List<Integer> gpus, List<Integer> followers) {
      int index = slots.size();
      int k = onNode.merge(node, 1, Integer::sum) - 1;
      PortMap ports = role == WorkerRole.PREFILL
          ? PortMap.forPrefill(index, k, prefillOnNode.merge(node, 1, Integer::sum) - 1, sidecarBase)
          : PortMap.forWorker(index, k, sidecarBase);
      slots.add(new WorkerSlot(index, node, gpus, ports, followers, role, role == null ? null : roleIndex));
    }
  }

  /** GPUs used on the fullest node (what the Slurm job asks for per node). */
  public int gpusUsedPerNode() {
    java.util.Map<Integer, Integer> used = new java.util.HashMap<>();
    for (WorkerSlot w : workers) {
      used.merge(w.node(), w.gpus().size(), Integer::sum);
      w.followerNodes().forEach(n -> used.merge(n, w.gpus().size(), Integer::sum));
    }
    return used.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** CUDA_VISIBLE_DEVICES is set only for a worker that uses part of a node. */
  public boolean partialNode(WorkerSlot w) {
    return w.gpus().size() < gpusPerNode;
  }
}
