package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunHost;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.host.HostException;

/** Opens (and reuses) the {@link RunHost} of a GpuCluster. */
public interface Hosts extends AutoCloseable {
  /**
   * The host of {@code cluster}, reusing the open connection while the cluster and its Secrets are
   * unchanged.
   *
   * @throws HostException when the cluster's Secrets are missing or the connection cannot be set up
   */
  RunHost forCluster(GpuCluster cluster) throws HostException;

  @Override
  void close();
}
