package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.api.Mode;
import dev.srt.operator.run.BackendRunHost;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.SecretKeyRef;
import dev.srt.operator.api.SshSpec;
import dev.srt.operator.config.Durations;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.LocalTransport;
import dev.srt.operator.host.SshConfig;
import dev.srt.operator.host.SshTransport;
import dev.srt.operator.host.Transport;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One open connection per GpuCluster, shared by the reconcilers and the poller, rebuilt when the
 * cluster's spec or its Secrets change. The SSH key is read from the Secret into memory only; it
 * is never logged, stored in status or written anywhere.
 *
 * <p>No lock is shared between clusters: each cluster has its own slot, so a reconcile of one
 * cluster never waits for another's connection (or its Secret reads), and callers of one cluster
 * wait for the first to open the connection, which is then opened once. Secrets come from a
 * {@link SecretCache} (a {@code get} per Secret at most every {@link SecretCache#DEFAULT_TTL}).
 */
public final class ClusterConnections implements Hosts {
  /** Opens the host of a cluster whose Secrets were read (null for a local cluster). */
  interface Opener {
    RunHost open(GpuCluster cluster, Secret keySecret, Secret knownHostsSecret) throws HostException;
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
        (cluster, key, knownHosts) -> open(cluster, key, knownHosts, metrics));
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
    Secret keySecret = null;
    Secret knownHostsSecret = null;
    if (!spec.isLocal()) {
      SshSpec ssh = spec.ssh;
      try {
        keySecret = secret(cluster, ssh.privateKeySecretRef);
        knownHostsSecret = ssh.knownHostsSecretRef == null ? null : secret(cluster, ssh.knownHostsSecretRef);
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
    String version = cluster.getMetadata().getGeneration() + "|" + versionOf(keySecret) + "|" + versionOf(knownHostsSecret);
    if (entry != null && entry.version().equals(version)) {
      return entry.host();
    }
    if (entry != null) {
      entry.host().close();
      slot.entry = null;
    }
    RunHost host = opener.open(cluster, keySecret, knownHostsSecret);
    slot.entry = new Entry(version, host);
    return host;
  }

  private static RunHost open(GpuCluster cluster, Secret keySecret, Secret knownHostsSecret, MeterRegistry metrics)
      throws HostException {
    GpuClusterSpec spec = cluster.getSpec();
    Transport transport = spec.isLocal() ? new LocalTransport() : new SshTransport(sshConfig(cluster, keySecret, knownHostsSecret));
    return BackendRunHost.of(spec, transport, new HostCallTimer(metrics));
  }

  private static SshConfig sshConfig(GpuCluster cluster, Secret keySecret, Secret knownHostsSecret) throws HostException {
    SshSpec ssh = cluster.getSpec().ssh;
    byte[] key = data(keySecret, ssh.privateKeySecretRef);
    byte[] knownHosts = knownHostsSecret == null ? null : data(knownHostsSecret, ssh.knownHostsSecretRef);
    try {
      return new SshConfig(ssh.host, ssh.port == null ? 22 : ssh.port, ssh.user, key, knownHosts,
          Boolean.TRUE.equals(ssh.insecureSkipHostKeyVerification),
          Durations.parse(ssh.connectTimeout, SshConfig.DEFAULT_CONNECT_TIMEOUT), SshConfig.DEFAULT_KEEPALIVE_INTERVAL);
    } catch (IllegalArgumentException e) {
      throw new HostException(HostException.Kind.AUTH, e.getMessage());
    }
  }

  private Secret secret(GpuCluster cluster, SecretKeyRef ref) throws HostException {
    if (ref == null) {
      throw new HostException(HostException.Kind.AUTH, "spec.ssh.privateKeySecretRef is required by the operator "
          + "(privateKeyFile is for the CLI)");
    }
    Secret s = secrets.get(cluster.getMetadata().getNamespace(), ref.name);
    if (s == null) {
      throw new ClusterSecretException(ConditionReason.SecretNotFound, "Secret " + ref.name + " not found in namespace "
          + cluster.getMetadata().getNamespace());
    }
    return s;
  }

  private static byte[] data(Secret secret, SecretKeyRef ref) throws HostException {
    if (secret.getData() != null && secret.getData().get(ref.key) != null) {
      return Base64.getDecoder().decode(secret.getData().get(ref.key));
    }
    if (secret.getStringData() != null && secret.getStringData().get(ref.key) != null) {
      return secret.getStringData().get(ref.key).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    throw new ClusterSecretException(ConditionReason.SecretKeyMissing, "Secret " + ref.name + " has no key " + ref.key);
  }

  private static String versionOf(Secret s) {
    return s == null ? "-" : Objects.toString(s.getMetadata().getResourceVersion(), "?");
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
