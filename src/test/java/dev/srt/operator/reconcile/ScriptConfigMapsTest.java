package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.api.RouterComparison;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The script ConfigMaps: the operator creates its own and replaces only its own. */
class ScriptConfigMapsTest {
  static final String NS = "bench";
  static final String UID = "6f1c2a9e-0d4b-4c1e-9a57-3b2f1e0c9d88";

  MockApiServer api;
  RouterComparison rc;

  @BeforeEach
  void setUp() {
    api = new MockApiServer();
    rc = comparison(UID);
  }

  @AfterEach
  void tearDown() {
    api.close();
  }

  static RouterComparison comparison(String uid) {
    RouterComparison rc = new RouterComparison();
    rc.setMetadata(new ObjectMetaBuilder().withName("qwen3-32b-routers").withNamespace(NS).withUid(uid).build());
    return rc;
  }

  ConfigMap get(String name) {
    return api.client.configMaps().inNamespace(NS).withName(name).get();
  }

  void store(String script) {
    ScriptConfigMaps.store(api.client, rc, "sgl-router", "r1a2b3c4", "run.sbatch", script, "sha256:" + script.length(), null);
  }

  @Test
  void storesTheScriptLabelledAndOwnedByTheComparison() {
    store("#!/bin/bash\necho one\n");
    ConfigMap cm = get("qwen3-32b-routers-sgl-router-r1a2b3c4");
    assertThat(cm.getData()).containsExactly(Map.entry("run.sbatch", "#!/bin/bash\necho one\n"));
    assertThat(cm.getMetadata().getLabels()).containsEntry(ScriptConfigMaps.COMPARISON_LABEL, "qwen3-32b-routers")
        .containsEntry(ScriptConfigMaps.ARM_LABEL, "sgl-router").containsEntry(ScriptConfigMaps.RUN_LABEL, "r1a2b3c4");
    assertThat(cm.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getUid()).isEqualTo(UID);
      assertThat(o.getKind()).isEqualTo("RouterComparison");
      assertThat(o.getController()).isTrue();
      assertThat(o.getBlockOwnerDeletion()).isFalse();
    });
  }

  @Test
  void aRetriedSubmitReplacesTheComparisonsOwnConfigMap() {
    store("#!/bin/bash\necho one\n");
    store("#!/bin/bash\necho two\n");
    assertThat(get("qwen3-32b-routers-sgl-router-r1a2b3c4").getData()).containsEntry("run.sbatch", "#!/bin/bash\necho two\n");
  }

  @Test
  void aConfigMapThatIsNotTheComparisonsIsNeverReplaced() {
    ConfigMap foreign = new ConfigMapBuilder().withNewMetadata().withName("qwen3-32b-routers-sgl-router-r1a2b3c4")
        .withNamespace(NS).endMetadata().withData(Map.of("app.conf", "keep me")).build();
    api.client.resource(foreign).create();
    assertThatThrownBy(() -> store("#!/bin/bash\necho evil\n")).isInstanceOf(ScriptConfigMaps.NotOwnedException.class)
        .hasMessageContaining("ConfigMap bench/qwen3-32b-routers-sgl-router-r1a2b3c4")
        .hasMessageContaining("not replacing it");
    assertThat(get("qwen3-32b-routers-sgl-router-r1a2b3c4").getData()).containsExactly(Map.entry("app.conf", "keep me"));
  }

  @Test
  void theLabelAloneOrAnEarlierComparisonOfTheSameNameIsNotOwnership() {
    ConfigMap labelled = new ConfigMapBuilder().withNewMetadata().withName("qwen3-32b-routers-sgl-router-r1a2b3c4")
        .withNamespace(NS).withLabels(Map.of(ScriptConfigMaps.COMPARISON_LABEL, "qwen3-32b-routers")).endMetadata()
        .withData(Map.of("app.conf", "keep me")).build();
    api.client.resource(labelled).create();
    assertThatThrownBy(() -> store("x")).isInstanceOf(ScriptConfigMaps.NotOwnedException.class);

    ConfigMap earlier = get("qwen3-32b-routers-sgl-router-r1a2b3c4");
    earlier.getMetadata().setOwnerReferences(java.util.List.of(new OwnerReferenceBuilder().withApiVersion("srt.dev/v1alpha1")
        .withKind("RouterComparison").withName("qwen3-32b-routers").withUid("0b7e4d21-old").build()));
    api.client.resource(earlier).update();
    assertThatThrownBy(() -> store("x")).isInstanceOf(ScriptConfigMaps.NotOwnedException.class);
    assertThat(get("qwen3-32b-routers-sgl-router-r1a2b3c4").getData()).containsExactly(Map.entry("app.conf", "keep me"));
  }

  @Test
  void longNamesStayValidAndDistinct() {
    RouterComparison longRc = new RouterComparison();
    longRc.setMetadata(new ObjectMetaBuilder().withName("c".repeat(250)).withNamespace(NS).withUid(UID).build());
    Set<String> names = new HashSet<>();
    for (String run : new String[] {"r00000001", "r00000002"}) {
      String name = ScriptConfigMaps.name(longRc, "sgl-router", run);
      assertThat(name).hasSizeLessThanOrEqualTo(253).matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
      names.add(name);
    }
    assertThat(names).as("each run its own ConfigMap").hasSize(2);
    assertThat(ScriptConfigMaps.name(rc, "sgl-router", "r1a2b3c4")).isEqualTo("qwen3-32b-routers-sgl-router-r1a2b3c4");
  }
}
