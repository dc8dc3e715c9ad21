package dev.srt.operator.plan;

import java.util.List;

/** Where worker {@code index} runs and which ports and GPUs it owns. */
public record WorkerSlot(int index, int node, List<Integer> gpus, PortMap ports) {
  public String name() {
    return "worker-" + index;
  }
}
