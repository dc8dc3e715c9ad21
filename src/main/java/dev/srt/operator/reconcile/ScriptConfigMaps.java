package dev.srt.operator.reconcile;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.plan.Hashes;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps each run's rendered script in a ConfigMap owned by its comparison ({@code kubectl get cm
 * -l srt.dev/comparison=NAME}), deleted with it by the garbage collector. Scripts never contain
 * secrets: SSH keys stay in the operator's memory and never reach the host's files.
 *
 * <p>The operator only ever touches ConfigMaps it owns: it creates one, and replaces one only if
 * it carries the comparison's label and an owner reference to the comparison's uid (checked, then
 * replaced at the resourceVersion that was checked). A ConfigMap of the same name that someone
 * else made is left alone: {@link NotOwnedException}. It never lists, patches or deletes
 * ConfigMaps, so its RBAC is get, create and update.
 */
public final class ScriptConfigMaps {
  public static final String COMPARISON_LABEL = "srt.dev/comparison";
  public static final String ARM_LABEL = "srt.dev/arm";
  public static final String RUN_LABEL = "srt.dev/run-id";
  private static final int MAX_NAME = 253;

  /** A ConfigMap with the script's name exists but does not belong to the comparison. */
  public static final class NotOwnedException extends IllegalStateException {
    NotOwnedException(String message) {
      super(message);
    }
  }

  private ScriptConfigMaps() {}

  /**
   * {@code <comparison>-<arm>-<runId>}; a name too long for Kubernetes is shortened and made
   * unique again with a hash of the full name.
   */
  public static String name(RouterComparison rc, String arm, String runId) {
    String name = (rc.getMetadata().getName() + "-" + arm + "-" + runId).toLowerCase(Locale.ROOT);
    if (name.length() <= MAX_NAME) {
      return name;
    }
    String hash = Hashes.sha256(name).substring(0, 10);
    return name.substring(0, MAX_NAME - hash.length() - 1).replaceAll("[^a-z0-9]+$", "") + "-" + hash;
  }

  /** The key of the run's plan, as in its run directory. */
  public static final String PLAN_KEY = "plan.json";

  public static void store(KubernetesClient client, RouterComparison rc, String arm, String runId, String fileName,
      String script, String scriptHash, String planJson) {
    String ns = rc.getMetadata().getNamespace();
    ConfigMap cm = new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name(rc, arm, runId))
        .withNamespace(ns)
        .withLabels(Map.of(COMPARISON_LABEL, rc.getMetadata().getName(), ARM_LABEL, arm, RUN_LABEL, runId))
        .withAnnotations(Map.of("srt.dev/script-sha256", scriptHash))
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(rc.getApiVersion()).withKind(rc.getKind())
            .withName(rc.getMetadata().getName()).withUid(rc.getMetadata().getUid()).withController(true)
            .withBlockOwnerDeletion(false).build())
        .endMetadata()
        .withData(planJson == null ? Map.of(fileName, script) : Map.of(fileName, script, PLAN_KEY, planJson))
        .build();
    NonNamespaceOperation<ConfigMap, ?, Resource<ConfigMap>> configMaps = client.configMaps().inNamespace(ns);
    try {
      configMaps.resource(cm).create();
      return;
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
    // A retried submit of the same run: replace our own ConfigMap, nobody else's.
    ConfigMap existing = configMaps.withName(cm.getMetadata().getName()).get();
    if (existing == null) {
      configMaps.resource(cm).create();
      return;
    }
    if (!ownedBy(existing, rc)) {
      throw new NotOwnedException("ConfigMap " + ns + "/" + cm.getMetadata().getName() + " exists and does not belong to "
          + "RouterComparison " + rc.getMetadata().getName() + " (no " + COMPARISON_LABEL + " label and owner reference "
          + "to it): not replacing it");
    }
    cm.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
    configMaps.resource(cm).update();
  }

  /** Labelled with the comparison's name and owned by its uid (not only its name: it may have been recreated). */
  static boolean ownedBy(ConfigMap cm, RouterComparison rc) {
    Map<String, String> labels = cm.getMetadata().getLabels();
    List<OwnerReference> owners = cm.getMetadata().getOwnerReferences();
    return labels != null && rc.getMetadata().getName().equals(labels.get(COMPARISON_LABEL))
        && owners != null && rc.getMetadata().getUid() != null
        && owners.stream().anyMatch(o -> Objects.equals(o.getUid(), rc.getMetadata().getUid())
            && Objects.equals(o.getKind(), rc.getKind()));
  }
}
