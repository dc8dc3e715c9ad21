package dev.srt.operator.reconcile;

import dev.srt.operator.api.Api;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.SecretEnvVar;
import dev.srt.operator.api.SecretKeyRef;
import dev.srt.operator.api.SshJumpSpec;
import dev.srt.operator.api.SshSpec;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.host.SecretEnvFile;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the values of a run's secret variables from their Secrets, when the run is submitted: the
 * GpuCluster's {@code secretEnv} from the GpuCluster's namespace, then the comparison's from the
 * comparison's. The values live in memory only until they are written to the run directory; they
 * are never logged, put in status, events or a ConfigMap. Every message names the Secret and key,
 * never a value.
 *
 * <p>Secret variables are by consent: the operator reads them with its own rights and every
 * process of the run inherits them, so a comparison could otherwise name any Secret of its
 * namespace. Only a Secret labelled {@value #LABEL}{@code : "true"} is resolved, and never one that
 * a GpuCluster of the namespace logs in with (its key, passphrase or known_hosts, of the host or a
 * jump host), labelled or not: that one is refused before it is read.
 */
public final class SecretEnvResolver {
  /** The label that makes a Secret available to {@code spec.secretEnv}; its value must be {@code "true"}. */
  public static final String LABEL = Api.SECRET_ENV_LABEL;

  private final KubernetesClient client;

  public SecretEnvResolver(KubernetesClient client) {
    this.client = client;
  }

  /** A Secret or key of a secret variable is missing or unreadable: nothing may be submitted. */
  public static final class Unresolved extends Exception {
    private static final long serialVersionUID = 1L;

    Unresolved(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The values of every secret variable of {@code rc} and its {@code cluster}. {@code clusters} are
   * the GpuClusters of their namespace (a comparison's cluster is always in its own namespace):
   * no Secret that one of them names for SSH is ever read as a secret variable.
   */
  public SecretEnvFile resolve(RouterComparison rc, GpuCluster cluster, Collection<GpuCluster> clusters) throws Unresolved {
    Map<String, byte[]> values = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    Map<String, Optional<Secret>> read = new HashMap<>();
    Map<String, String> sshSecrets = new HashMap<>();
    if (cluster != null) {
      sshSecretsOf(cluster, sshSecrets);
    }
    if (clusters != null) {
      clusters.forEach(c -> sshSecretsOf(c, sshSecrets));
    }
    if (cluster != null && cluster.getSpec() != null) {
      collect(values, problems, read, sshSecrets, cluster.getMetadata().getNamespace(), cluster.getSpec().secretEnv,
          "GpuCluster " + cluster.getMetadata().getName() + " spec.secretEnv");
    }
    if (rc.getSpec() != null) {
      collect(values, problems, read, sshSecrets, rc.getMetadata().getNamespace(), rc.getSpec().secretEnv, "spec.secretEnv");
    }
    if (!problems.isEmpty()) {
      throw new Unresolved(String.join("; ", problems));
    }
    try {
      return SecretEnvFile.ofBytes(values);
    } catch (IllegalArgumentException e) {
      throw new Unresolved(e.getMessage());
    }
  }

  /**
   * Records, by name, each Secret that {@code cluster} names for SSH (the host's and every jump
   * host's key, passphrase and known_hosts) with the first GpuCluster that names it. By name only:
   * every cluster given is of the comparison's namespace, where all its secret variables are read.
   */
  static void sshSecretsOf(GpuCluster cluster, Map<String, String> out) {
    if (cluster == null || cluster.getSpec() == null || cluster.getSpec().ssh == null || cluster.getMetadata() == null) {
      return;
    }
    String name = cluster.getMetadata().getName();
    SshSpec ssh = cluster.getSpec().ssh;
    List<SecretKeyRef> refs = new ArrayList<>(java.util.Arrays.asList(ssh.privateKeySecretRef, ssh.privateKeyPassphraseSecretRef,
        ssh.knownHostsSecretRef));
    if (ssh.proxyJump != null) {
      for (SshJumpSpec hop : ssh.proxyJump) {
        if (hop != null) {
          refs.addAll(java.util.Arrays.asList(hop.privateKeySecretRef, hop.privateKeyPassphraseSecretRef, hop.knownHostsSecretRef));
        }
      }
    }
    refs.stream().filter(r -> r != null && r.name != null).forEach(r -> out.putIfAbsent(r.name, name));
  }

  private void collect(Map<String, byte[]> values, List<String> problems, Map<String, Optional<Secret>> read,
      Map<String, String> sshSecrets, String ns, List<SecretEnvVar> vars, String path) {
    if (vars == null) {
      return;
    }
    for (int i = 0; i < vars.size(); i++) {
      SecretEnvVar v = vars.get(i);
      String where = " (" + FieldPath.index(path, i) + ", " + v.name + ")";
      String sshOf = sshSecrets.get(v.secretKeyRef.name);
      if (sshOf != null) {
        // Refused before it is read: a comparison must not make the operator copy a login key to the host.
        problems.add("Secret " + v.secretKeyRef.name + " is the SSH key of GpuCluster " + sshOf + ": never a secret variable" + where);
        continue;
      }
      Optional<Secret> secret;
      try {
        secret = read.computeIfAbsent(ns + "/" + v.secretKeyRef.name,
            k -> Optional.ofNullable(client.secrets().inNamespace(ns).withName(v.secretKeyRef.name).get()));
      } catch (KubernetesClientException e) {
        problems.add("cannot read Secret " + v.secretKeyRef.name + " in namespace " + ns + " (HTTP " + e.getCode()
            + "; the operator needs get on it)" + where);
        continue;
      }
      if (secret.isEmpty()) {
        problems.add("Secret " + v.secretKeyRef.name + " not found in namespace " + ns + where);
        continue;
      }
      if (!labelled(secret.get())) {
        problems.add("Secret " + v.secretKeyRef.name + " is not labelled " + LABEL + ": \"true\": the operator resolves spec.secretEnv"
            + " only from Secrets made for it" + where);
        continue;
      }
      byte[] value = data(secret.get(), v.secretKeyRef.key);
      if (value == null) {
        problems.add("Secret " + v.secretKeyRef.name + " in namespace " + ns + " has no key " + v.secretKeyRef.key + where);
        continue;
      }
      values.put(v.name, value);
    }
  }

  /** The Secret carries {@value #LABEL}{@code : "true"}: its owner made it for secret variables. */
  static boolean labelled(Secret secret) {
    Map<String, String> labels = secret.getMetadata() == null ? null : secret.getMetadata().getLabels();
    return labels != null && "true".equals(labels.get(LABEL));
  }

  private static byte[] data(Secret secret, String key) {
    if (secret.getData() != null && secret.getData().get(key) != null) {
      return Base64.getDecoder().decode(secret.getData().get(key));
    }
    if (secret.getStringData() != null && secret.getStringData().get(key) != null) {
      return secret.getStringData().get(key).getBytes(StandardCharsets.UTF_8);
    }
    return null;
  }
}
