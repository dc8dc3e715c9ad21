package dev.srt.operator.config;

import dev.srt.operator.api.ResourcesSpec;

/**
 * How an aggregated topology divides its GPUs, computed in one place for the validator, the port
 * checks and the planner's packing ({@code plan/Topology}). In longs: every count is below 2^31,
 * so no product of two of them wraps around.
 *
 * @param nodes aggNodes (default 1)
 * @param gpusPerNode the cluster's GPUs per node
 * @param workers aggWorkers
 * @param gpusPerWorker gpusPerWorker, or else the node GPUs shared evenly by the workers (0 when
 *     there are more workers than GPUs)
 */
public record WorkerFit(long nodes, long gpusPerNode, long workers, long gpusPerWorker) {

  /** The fit of {@code r}'s aggregated workers on nodes of {@code gpusPerNode}; counts must be at least 1. */
  public static WorkerFit of(ResourcesSpec r, long gpusPerNode) {
    long nodes = r.aggNodes == null ? 1 : r.aggNodes;
    long workers = r.aggWorkers;
    long perWorker = r.gpusPerWorker != null ? r.gpusPerWorker : nodes * gpusPerNode / workers;
    return new WorkerFit(nodes, gpusPerNode, workers, perWorker);
  }

  /** A worker larger than a node spans whole nodes. */
  public boolean multiNode() {
    return gpusPerWorker > gpusPerNode;
  }

  /** How many workers share one node (1 for a worker of a node or more; a worker has at least one GPU). */
  public long workersPerNode() {
    long per = Math.max(1, gpusPerWorker);
    return per >= gpusPerNode ? 1 : gpusPerNode / per;
  }

  /** Workers of the whole topology, of every role (1 when none is set: the rules report that). */
  public static long totalWorkers(ResourcesSpec r) {
    if (r.aggWorkers != null) {
      return r.aggWorkers;
    }
    long pd = (r.prefillWorkers == null ? 0L : r.prefillWorkers) + (r.decodeWorkers == null ? 0L : r.decodeWorkers);
    return pd == 0 ? 1 : pd;
  }
}
