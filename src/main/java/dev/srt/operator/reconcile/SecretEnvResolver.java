package dev.srt.operator.reconcile;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.SecretEnvVar;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.host.SecretEnvFile;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
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
 */
public final class SecretEnvResolver {
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

  /** The values of every secret variable of {@code rc} and its {@code cluster}. */
  public SecretEnvFile resolve(RouterComparison rc, GpuCluster cluster) throws Unresolved {
    Map<String, byte[]> values = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    Map<String, Optional<Secret>> read = new HashMap<>();
    if (cluster != null && cluster.getSpec() != null) {
      collect(values, problems, read, cluster.getMetadata().getNamespace(), cluster.getSpec().secretEnv,
          "GpuCluster " + cluster.getMetadata().getName() + " spec.secretEnv");
    }
    if (rc.getSpec() != null) {
      collect(values, problems, read, rc.getMetadata().getNamespace(), rc.getSpec().secretEnv, "spec.secretEnv");
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

  private void collect(Map<String, byte[]> values, List<String> problems, Map<String, Optional<Secret>> read, String ns,
      List<SecretEnvVar> vars, String path) {
    if (vars == null) {
      return;
    }
    for (int i = 0; i < vars.size(); i++) {
      SecretEnvVar v = vars.get(i);
      String where = " (" + FieldPath.index(path, i) + ", " + v.name + ")";
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
      byte[] value = data(secret.get(), v.secretKeyRef.key);
      if (value == null) {
        problems.add("Secret " + v.secretKeyRef.name + " in namespace " + ns + " has no key " + v.secretKeyRef.key + where);
        continue;
      }
      values.put(v.name, value);
    }
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
