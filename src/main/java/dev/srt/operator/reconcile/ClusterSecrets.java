package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.SecretKeyRef;
import dev.srt.operator.api.SshJumpSpec;
import dev.srt.operator.api.SshSpec;
import dev.srt.operator.config.Durations;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.SshConfig;
import dev.srt.operator.host.SshEndpoint;
import dev.srt.operator.host.SshIdentity;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The Secrets a GpuCluster's ssh block names (key, passphrase and known_hosts of the host and of
 * each jump host), each read by name from the {@link SecretCache}, and the {@link SshConfig} made
 * from them. A jump host that names no key or known_hosts of its own uses the host's, as the CLI
 * does with files.
 */
final class ClusterSecrets {
  static final ClusterSecrets NONE = new ClusterSecrets(Map.of());

  private final Map<String, Secret> byName;

  private ClusterSecrets(Map<String, Secret> byName) {
    this.byName = byName;
  }

  /** Reads every Secret the cluster's ssh block names. */
  static ClusterSecrets read(GpuCluster cluster, SecretCache cache) throws HostException {
    SshSpec ssh = cluster.getSpec().ssh;
    if (ssh.privateKeySecretRef == null) {
      throw new HostException(HostException.Kind.AUTH, "spec.ssh.privateKeySecretRef is required by the operator "
          + "(privateKeyFile and the ssh-agent are for the CLI)");
    }
    List<SecretKeyRef> refs = new ArrayList<>(List.of(ssh.privateKeySecretRef));
    refs.add(ssh.privateKeyPassphraseSecretRef);
    refs.add(ssh.knownHostsSecretRef);
    for (SshJumpSpec hop : jumps(ssh)) {
      refs.add(hop.privateKeySecretRef);
      refs.add(hop.privateKeyPassphraseSecretRef);
      refs.add(hop.knownHostsSecretRef);
    }
    String ns = cluster.getMetadata().getNamespace();
    Map<String, Secret> byName = new TreeMap<>();
    for (SecretKeyRef ref : refs) {
      if (ref == null || byName.containsKey(ref.name)) {
        continue;
      }
      Secret s = cache.get(ns, ref.name);
      if (s == null) {
        throw new ClusterSecretException(ConditionReason.SecretNotFound, "Secret " + ref.name + " not found in namespace " + ns);
      }
      byName.put(ref.name, s);
    }
    return new ClusterSecrets(byName);
  }

  /** The Secrets' names and resource versions: a new value means a rotated key, passphrase or known_hosts. */
  String version() {
    return byName.entrySet().stream()
        .map(e -> e.getKey() + "=" + Objects.toString(e.getValue().getMetadata().getResourceVersion(), "?"))
        .collect(Collectors.joining(","));
  }

  /** The connection settings: the host, then its jump hosts, each with its key and known_hosts. */
  SshConfig sshConfig(GpuCluster cluster) throws HostException {
    SshSpec ssh = cluster.getSpec().ssh;
    boolean insecure = Boolean.TRUE.equals(ssh.insecureSkipHostKeyVerification);
    SshIdentity key = key(ssh.privateKeySecretRef, ssh.privateKeyPassphraseSecretRef);
    byte[] knownHosts = ssh.knownHostsSecretRef == null ? null : data(ssh.knownHostsSecretRef);
    if (knownHosts == null && !insecure) {
      throw new HostException(HostException.Kind.HOST_KEY, "spec.ssh.knownHostsSecretRef is required by the operator "
          + "(knownHostsFile and ~/.ssh/known_hosts are for the CLI)");
    }
    try {
      SshEndpoint target = new SshEndpoint(ssh.host, ssh.port == null ? 22 : ssh.port, ssh.user, key, knownHosts, insecure);
      List<SshEndpoint> jumps = new ArrayList<>();
      for (SshJumpSpec hop : jumps(ssh)) {
        SshIdentity hopKey = hop.privateKeySecretRef == null ? key : key(hop.privateKeySecretRef, hop.privateKeyPassphraseSecretRef);
        byte[] hopKnownHosts = hop.knownHostsSecretRef == null ? knownHosts : data(hop.knownHostsSecretRef);
        jumps.add(new SshEndpoint(hop.host, hop.port == null ? 22 : hop.port, hop.user == null ? ssh.user : hop.user, hopKey,
            hopKnownHosts, hop.knownHostsSecretRef == null && insecure));
      }
      return new SshConfig(target, jumps, Durations.parse(ssh.connectTimeout, SshConfig.DEFAULT_CONNECT_TIMEOUT),
          SshConfig.DEFAULT_KEEPALIVE_INTERVAL);
    } catch (IllegalArgumentException e) {
      throw new HostException(HostException.Kind.AUTH, e.getMessage());
    }
  }

  private SshIdentity key(SecretKeyRef key, SecretKeyRef passphrase) throws HostException {
    return new SshIdentity.PrivateKey("the private key of Secret " + key.name + ", key " + key.key, data(key),
        passphrase == null ? null : strip(data(passphrase)));
  }

  /** A passphrase written with {@code echo} into a file ends with a newline that is no part of it. */
  private static byte[] strip(byte[] passphrase) {
    int n = passphrase.length;
    while (n > 0 && (passphrase[n - 1] == '\n' || passphrase[n - 1] == '\r')) {
      n--;
    }
    return n == passphrase.length ? passphrase : java.util.Arrays.copyOf(passphrase, n);
  }

  private byte[] data(SecretKeyRef ref) throws HostException {
    Secret secret = byName.get(ref.name);
    if (secret.getData() != null && secret.getData().get(ref.key) != null) {
      return Base64.getDecoder().decode(secret.getData().get(ref.key));
    }
    if (secret.getStringData() != null && secret.getStringData().get(ref.key) != null) {
      return secret.getStringData().get(ref.key).getBytes(StandardCharsets.UTF_8);
    }
    throw new ClusterSecretException(ConditionReason.SecretKeyMissing, "Secret " + ref.name + " has no key " + ref.key);
  }

  private static List<SshJumpSpec> jumps(SshSpec ssh) {
    return ssh.proxyJump == null ? List.of() : ssh.proxyJump.stream().filter(Objects::nonNull).toList();
  }
}
