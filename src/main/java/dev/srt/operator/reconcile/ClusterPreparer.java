package dev.srt.operator.reconcile;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.host.HostException;

/**
 * Turns the GpuCluster read from the API into the one the operator plans and runs with. The
 * operator's edge (the {@code operator} command) supplies it: for a local cluster annotated
 * {@code srt.dev/emulated-host} it installs the emulator's shims and puts them first on the
 * cluster's path, exactly as {@code apply} does.
 */
@FunctionalInterface
public interface ClusterPreparer {
  ClusterPreparer NONE = cluster -> cluster;

  /** The cluster to use; {@code cluster} itself when nothing changes. Never modifies its argument. */
  GpuCluster prepare(GpuCluster cluster) throws HostException;
}
