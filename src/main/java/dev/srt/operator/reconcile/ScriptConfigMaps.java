package dev.srt.operator.reconcile;

import dev.srt.operator.api.RouterComparison;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Locale;
import java.util.Map;

/**
 * Keeps each run's rendered script in a ConfigMap owned by its comparison ({@code kubectl get cm
 * -l srt.dev/comparison=NAME}), deleted with it. Scripts never contain secrets: SSH keys stay in
 * the operator's memory and never reach the host's files.
 */
public final class ScriptConfigMaps {
  public static final String COMPARISON_LABEL = "srt.dev/comparison";
  public static final String ARM_LABEL = "srt.dev/arm";
  public static final String RUN_LABEL = "srt.dev/run-id";

  private ScriptConfigMaps() {}

  public static String name(RouterComparison rc, String arm, String runId) {
    String name = (rc.getMetadata().getName() + "-" + arm + "-" + runId).toLowerCase(Locale.ROOT);
    return name.length() <= 253 ? name : name.substring(0, 253);
  }

  public static void store(KubernetesClient client, RouterComparison rc, String arm, String runId, String fileName,
      String script, String scriptHash) {
    ConfigMap cm = new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name(rc, arm, runId))
        .withNamespace(rc.getMetadata().getNamespace())
        .withLabels(Map.of(COMPARISON_LABEL, rc.getMetadata().getName(), ARM_LABEL, arm, RUN_LABEL, runId))
        .withAnnotations(Map.of("srt.dev/script-sha256", scriptHash))
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(rc.getApiVersion()).withKind(rc.getKind())
            .withName(rc.getMetadata().getName()).withUid(rc.getMetadata().getUid()).withController(true)
            .withBlockOwnerDeletion(false).build())
        .endMetadata()
        .withData(Map.of(fileName, script))
        .build();
    client.configMaps().inNamespace(rc.getMetadata().getNamespace()).resource(cm).createOr(c -> c.update());
  }
}
