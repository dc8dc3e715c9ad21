package dev.srt.operator.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.Mode;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.render.Scripts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * srtctl's own {@code SRTCTL_*} settings: the Model Gateway / Dynamo KV recipe pair of
 * examples/srtctl/gateway-vs-dynamo, whose Dynamo recipe alone sets srtctl's etcd and NATS ports,
 * imports, and the ports land in the GpuCluster, never in an environment.
 */
class SrtctlVariablesTest {
  static final Path GATEWAY = Path.of("examples/srtctl/gateway-vs-dynamo/gateway.yaml");
  static final Path DYNAMO = Path.of("examples/srtctl/gateway-vs-dynamo/dynamo-kv.yaml");

  @TempDir Path tmp;

  private static RecipeImport.Result importPair(Path... recipes) {
    return RecipeImport.run(List.of(recipes), "pair", Map.of());
  }

  @Test
  void portsSetByTheDynamoRecipeAloneBecomeTheClustersInfraAndNoEnvironment() {
    RecipeImport.Result r = importPair(GATEWAY, DYNAMO);

    assertThat(r.problems()).filteredOn(Problem::isError).isEmpty();
    LoadedResources loaded = LoadedResources.parse("imported.yaml", r.comparisonYaml() + "---\n" + r.clusterYaml());
    assertThat(loaded.problems()).filteredOn(Problem::isError).isEmpty();
    GpuCluster cluster = loaded.clusters().get(0);
    assertThat(cluster.getSpec().infra.etcdClientPort).isEqualTo(22379);
    assertThat(cluster.getSpec().infra.etcdPeerPort).isEqualTo(22380);
    assertThat(cluster.getSpec().infra.natsPort).isEqualTo(24222);
    assertThat(r.comparisonYaml()).as("srtctl's own variables reach no process").doesNotContain("SRTCTL_");
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("spec.infra (etcdClientPort: 22379, etcdPeerPort: 22380, natsPort: 24222)",
        "--cluster-out"));

    // it renders in both modes, and the Dynamo arm's etcd listens where the recipe asked
    RouterComparison comparison = loaded.comparisons().get(0);
    for (Mode mode : Mode.values()) {
      GpuCluster c = loaded.clusters().get(0);
      c.getSpec().mode = mode.id();
      String script = Scripts.render(Planner.plan(comparison, c, "dynamo-kv", mode));
      assertThat(script).as(mode.id()).contains("--listen-client-urls http://", ":22379 --advertise-client-urls", ":22380 --initial-advertise-peer-urls")
          .doesNotContainPattern(":2379\\b");
      assertThat(Scripts.render(Planner.plan(comparison, c, "sgl-model-gateway", mode))).doesNotContain("22379", "etcd --data-dir");
    }
  }

  @Test
  void theOtherArmsValueIsIgnoredWithItsReason() throws IOException {
    Path gateway = withEnv(GATEWAY, "gateway.yaml", "SRTCTL_ETCD_PORT: \"33379\"\n  SRTCTL_ETCD_PEER_PORT: \"22380\"\n  SRTCTL_NATS_PORT: \"24222\"");
    RecipeImport.Result r = importPair(gateway, DYNAMO);

    assertThat(r.problems()).filteredOn(Problem::isError).isEmpty();
    assertThat(r.clusterYaml()).contains("etcdClientPort: 22379").doesNotContain("33379");
    assertThat(r.ignored()).anySatisfy(l -> assertThat(l).startsWith(gateway + ":").contains("ignored environment.SRTCTL_ETCD_PORT: ",
        "frontend.type: sglang", "runs without etcd and NATS"));
  }

  @Test
  void twoDynamoArmsThatDisagreeAreRefusedNamingBothValues() throws IOException {
    Path other = copy(DYNAMO, "dynamo-kv-2.yaml", "name: dynamo-kv\n", "name: dynamo-kv-2\n");
    Files.writeString(other, Files.readString(other).replace("SRTCTL_NATS_PORT: \"24222\"", "SRTCTL_NATS_PORT: \"24333\""));

    RecipeImport.Result r = importPair(GATEWAY, DYNAMO, other);

    assertThat(r.refused()).isTrue();
    assertThat(r.comparisonYaml()).isNull();
    assertThat(r.problems()).extracting(Problem::toString).anySatisfy(p -> assertThat(p).startsWith(
        "environment.SRTCTL_NATS_PORT: 24222 in " + DYNAMO + ":21, 24333 in " + other + ":21: the Dynamo arms share"));
  }

  @Test
  void aDynamoArmThatLeavesAPortUnsetDisagreesWithOneThatSetsIt() throws IOException {
    Path other = copy(DYNAMO, "dynamo-kv-2.yaml", "name: dynamo-kv\n", "name: dynamo-kv-2\n");
    Files.writeString(other, Files.readString(other).replace("  SRTCTL_ETCD_PORT: \"22379\"\n", ""));

    RecipeImport.Result r = importPair(DYNAMO, other);

    assertThat(r.problems()).extracting(Problem::toString).anySatisfy(p -> assertThat(p).startsWith(
        "environment.SRTCTL_ETCD_PORT: 22379 in " + DYNAMO + ":19, unset in " + other).contains("srtctl's default, 2379"));
  }

  @Test
  void aClientPortAloneTakesThePeerPortNextToIt() throws IOException {
    Path dynamo = copy(DYNAMO, "dynamo-kv.yaml", "  SRTCTL_ETCD_PEER_PORT: \"22380\"\n", "");
    RecipeImport.Result r = importPair(GATEWAY, dynamo);

    assertThat(r.problems()).filteredOn(Problem::isError).isEmpty();
    assertThat(r.clusterYaml()).contains("etcdClientPort: 22379", "etcdPeerPort: 22380");
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("etcdPeerPort: 22380, next to SRTCTL_ETCD_PORT 22379"));
  }

  @Test
  void anUnknownSrtctlVariableIsRefusedNamingIt() throws IOException {
    Path gateway = withEnv(GATEWAY, "gateway.yaml", "SRTCTL_FANCY_MODE: \"on\"");
    Path dynamo = withEnv(DYNAMO, "dynamo-kv.yaml", "SRTCTL_FANCY_MODE: \"on\"\n  SRTCTL_ETCD_PORT: \"22379\"");

    RecipeImport.Result r = importPair(gateway, dynamo);

    assertThat(r.refused()).isTrue();
    assertThat(r.problems()).filteredOn(Problem::isError).extracting(Problem::toString).anySatisfy(p -> assertThat(p)
        .contains("environment.SRTCTL_FANCY_MODE: SRTCTL_FANCY_MODE is not a variable srtctl reads from a recipe"));
  }

  @Test
  void anOverrideSrtctlRefusesIsRefusedWithWhatReplacesIt() throws IOException {
    Path gateway = withEnv(GATEWAY, "gateway.yaml", "SRTCTL_ETCD_BINARY: /opt/etcd/bin/etcd");
    Path dynamo = withEnv(DYNAMO, "dynamo-kv.yaml", "SRTCTL_ETCD_BINARY: /opt/etcd/bin/etcd\n  SRTCTL_ETCD_PORT: \"22379\"");

    RecipeImport.Result r = importPair(gateway, dynamo);

    assertThat(r.problems()).filteredOn(Problem::isError).extracting(Problem::toString).anySatisfy(p -> assertThat(p)
        .contains("environment.SRTCTL_ETCD_BINARY: srtctl itself no longer reads it").contains("spec.infra.etcd"));
  }

  @Test
  void srtctlsKnownSettingsWithoutACounterpartAreIgnoredAndNeverPassedOn() throws IOException {
    Path gateway = withEnv(GATEWAY, "gateway.yaml", "SRTCTL_COMPUTE_ARCH: aarch64\n  HF_HUB_OFFLINE: \"1\"");
    Path dynamo = withEnv(DYNAMO, "dynamo-kv.yaml", "SRTCTL_COMPUTE_ARCH: aarch64\n  HF_HUB_OFFLINE: \"1\"\n  SRTCTL_ETCD_PORT: \"22379\"");

    RecipeImport.Result r = importPair(gateway, dynamo);

    assertThat(r.problems()).filteredOn(Problem::isError).isEmpty();
    assertThat(r.ignored()).anySatisfy(l -> assertThat(l).contains("ignored environment.SRTCTL_COMPUTE_ARCH: ", "Dynamo wheel"));
    assertThat(r.comparisonYaml()).contains("HF_HUB_OFFLINE").doesNotContain("SRTCTL_");
  }

  /** {@code from} with {@code entries} added to its environment (the Dynamo recipe's has the ports). */
  private Path withEnv(Path from, String name, String entries) throws IOException {
    String text = Files.readString(from);
    String updated = text.contains("environment:\n")
        ? text.replaceAll("environment:\n(  SRTCTL_[A-Z_]+: \"[0-9]+\"\n)+", "environment:\n  " + entries + "\n")
        : text.replace("observability: {enabled: true}\n", "observability: {enabled: true}\nenvironment:\n  " + entries + "\n");
    assertThat(updated).isNotEqualTo(text);
    Path to = tmp.resolve(name);
    Files.writeString(to, updated);
    return to;
  }

  private Path copy(Path from, String name, String find, String replace) throws IOException {
    String text = Files.readString(from);
    assertThat(text).contains(find);
    Path to = tmp.resolve(name);
    Files.writeString(to, text.replace(find, replace));
    return to;
  }
}
