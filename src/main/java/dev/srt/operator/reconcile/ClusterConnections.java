package dev.srt.operator.reconcile;

import dev.srt.operator.run.BackendRunHost;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.LocalTransport;
import dev.srt.operator.host.SshTransport;
import dev.srt.operator.host.Transport;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One open connection per GpuCluster, shared by the reconcilers and the poller, rebuilt when the
 * cluster's spec or its Secrets change. The SSH keys, their passphrases and known_hosts (of the
 * host and of its jump hosts) are read from Secrets into memory only; they are never logged,
 * stored in status or written anywhere.
 *
 * <p>No lock is shared between clusters: each cluster has its own slot, so a reconcile of one
 * cluster never waits for another's connection (or its Secret reads), and callers of one cluster
 * wait for the first to open the connection, which is then opened once. Secrets come from a
 * {@link SecretCache} (a {@code get} per Secret at most every {@link SecretCache#DEFAULT_TTL}).
 */
public final class ClusterConnections implements Hosts {
  /** Opens the host of a cluster whose Secrets were read (none for a local cluster). */
  interface Opener {
    RunHost open(GpuCluster cluster, ClusterSecrets secrets) throws HostException;
  }

  private final SecretCache secrets;
  private final Opener opener;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();

  private record Entry(String version, RunHost host) {}

  /** Guarded by itself: the open connection of one cluster. */
  private static final class Slot {
    private Entry entry;
  }

  public ClusterConnections(KubernetesClient client, MeterRegistry metrics) {
    this(client, metrics, SecretCache.DEFAULT_TTL);
  }

  ClusterConnections(KubernetesClient client, MeterRegistry metrics, Duration secretTtl) {
    this(new SecretCache((ns, name) -> client.secrets().inNamespace(ns).withName(name).get(), secretTtl),
        (cluster, secrets) -> open(cluster, secrets, metrics));
  }

  ClusterConnections(SecretCache secrets, Opener opener) {
    this.secrets = secrets;
    this.opener = opener;
  }

  @Override
  public RunHost forCluster(GpuCluster cluster) throws HostException {
    String key = cluster.getMetadata().getNamespace() + "/" + cluster.getMetadata().getName();
    Slot slot = slots.computeIfAbsent(key, k -> new Slot());
    synchronized (slot) {
      return forCluster(cluster, slot);
    }
  }

  private RunHost forCluster(GpuCluster cluster, Slot slot) throws HostException {
    GpuClusterSpec spec = cluster.getSpec();
    Entry entry = slot.entry;
    ClusterSecrets read = ClusterSecrets.NONE;
    if (!spec.isLocal()) {
      try {
        read = ClusterSecrets.read(cluster, secrets);
      } catch (HostException e) {
        // Deleting a namespace deletes the Secrets at once, while its comparisons still have to
        // cancel their jobs: the connection already open for the same cluster spec stays usable.
        if (entry != null && entry.version().startsWith(cluster.getMetadata().getGeneration() + "|")
            && cluster.getMetadata().getDeletionTimestamp() != null) {
          return entry.host();
        }
        throw e;
      }
    }
    String version = cluster.getMetadata().getGeneration() + "|" + read.version();
    if (entry != null && entry.version().equals(version)) {
      return entry.host();
    }
    if (entry != null) {
      entry.host().close();
      slot.entry = null;
    }
    RunHost host = opener.open(cluster, read);
    slot.entry = new Entry(version, host);
    return host;
  }

  private static RunHost open(GpuCluster cluster, ClusterSecrets secrets, MeterRegistry metrics) throws HostException {
    GpuClusterSpec spec = cluster.getSpec();
    Transport transport = spec.isLocal() ? new LocalTransport() : new SshTransport(secrets.sshConfig(cluster));
    return BackendRunHost.of(spec, transport, new HostCallTimer(metrics));
  }

  @Override
  public void close() {
    slots.values().forEach(slot -> {
      synchronized (slot) {
        if (slot.entry != null) {
          slot.entry.host().close();
          slot.entry = null;
        }
      }
    });
    secrets.clear();
  }
}
