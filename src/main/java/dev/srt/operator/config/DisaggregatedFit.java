package dev.srt.operator.config;

import dev.srt.operator.api.ResourcesSpec;

/**
 * How a prefill/decode topology divides its GPUs, for the validator, the port checks and the
 * planner alike (srt-slurm's allocation: prefill workers first, then decode). With prefillNodes and
 * decodeNodes each role packs onto nodes of its own, the decode nodes after the prefill nodes;
 * without them both roles share one node, prefill GPUs first (srt-slurm's decode_nodes: 0).
 *
 * @param sharedNode whether both roles share one node
 * @param prefill the prefill workers' fit on their nodes
 * @param decode the decode workers' fit on their nodes
 */
public record DisaggregatedFit(boolean sharedNode, WorkerFit prefill, WorkerFit decode) {

  /** The fit of {@code r}'s prefill and decode workers; both worker counts must be at least 1. */
  public static DisaggregatedFit of(ResourcesSpec r, long gpusPerNode) {
    long prefillWorkers = r.prefillWorkers;
    long decodeWorkers = r.decodeWorkers;
    if (r.prefillNodes == null && r.decodeNodes == null) {
      long even = gpusPerNode / (prefillWorkers + decodeWorkers);
      return new DisaggregatedFit(true,
          new WorkerFit(1, gpusPerNode, prefillWorkers, r.gpusPerPrefill != null ? r.gpusPerPrefill : even),
          new WorkerFit(1, gpusPerNode, decodeWorkers, r.gpusPerDecode != null ? r.gpusPerDecode : even));
    }
    long prefillNodes = r.prefillNodes == null ? 1 : r.prefillNodes;
    long decodeNodes = r.decodeNodes == null ? 1 : r.decodeNodes;
    return new DisaggregatedFit(false,
        new WorkerFit(prefillNodes, gpusPerNode, prefillWorkers,
            r.gpusPerPrefill != null ? r.gpusPerPrefill : prefillNodes * gpusPerNode / prefillWorkers),
        new WorkerFit(decodeNodes, gpusPerNode, decodeWorkers,
            r.gpusPerDecode != null ? r.gpusPerDecode : decodeNodes * gpusPerNode / decodeWorkers));
  }

  /** Nodes of the whole topology. */
  public long nodes() {
    return sharedNode ? 1 : prefill.nodes() + decode.nodes();
  }

  /** Workers of both roles. */
  public long workers() {
    return prefill.workers() + decode.workers();
  }

  /** The first node of the decode workers. */
  public long decodeFirstNode() {
    return sharedNode ? 0 : prefill.nodes();
  }

  /** The most workers (of either role) that one node holds: how many HTTP ports a node needs. */
  public long workersPerNode() {
    long p = Math.min(prefill.workers(), prefill.workersPerNode());
    long d = Math.min(decode.workers(), decode.workersPerNode());
    return sharedNode ? prefill.workers() + decode.workers() : Math.max(p, d);
  }

  /** The most prefill workers that one node holds: how many bootstrap ports a node needs. */
  public long prefillPerNode() {
    return Math.min(prefill.workers(), prefill.workersPerNode());
  }
}
