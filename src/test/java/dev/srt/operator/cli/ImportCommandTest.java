package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code srt-operator import RECIPE... [-o FILE] [--name NAME] [--cluster-out FILE]}. */
class ImportCommandTest {
  @TempDir Path tmp;

  /** The contract's arm recipes with their variables written out (the test cannot set the environment). */
  private List<Path> recipes(String pageSizeOfLast) throws IOException {
    List<Path> out = new ArrayList<>();
    List<String> names = List.of("arm1-sgl-router.yaml", "arm2-dynamo-sidecar.yaml", "arm3-dynamo-sgl-policy.yaml");
    for (String name : names) {
      String text = Files.readString(Path.of("src/test/resources/import", name))
          .replace("$ROUTER_ARM_MODEL_PATH", "/models/Qwen3-32B-FP8").replace("$ROUTER_ARM_SGLANG_SOURCE", "/src/sglang")
          .replace("\"$ROUTER_ARM_TRACE\"", "/traces/agentx.jsonl");
      if (name.equals(names.get(2))) {
        text = text.replace("page-size: 64", "page-size: " + pageSizeOfLast);
      }
      Path p = tmp.resolve(name);
      Files.writeString(p, text);
      out.add(p);
    }
    return out;
  }

  @Test
  void writesAValidComparisonAndClusterAndListsWhatItIgnored() throws IOException {
    List<String> args = new ArrayList<>(List.of("import"));
    recipes("64").forEach(p -> args.add(p.toString()));
    Path out = tmp.resolve("comparison.yaml");
    Path cluster = tmp.resolve("cluster.yaml");
    args.addAll(List.of("--out-file", out.toString(), "--name", "qwen3-32b-routers", "--cluster-out", cluster.toString()));
    ValidateCommandTest.Run r = ValidateCommandTest.run(args.toArray(String[]::new));
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("arm1-sgl-router.yaml:3: ignored model.precision: ", "note: ");
    LoadedResources loaded = LoadedResources.load(List.of(out));
    assertThat(loaded.problems()).filteredOn(Problem::isError).isEmpty();
    assertThat(loaded.comparisons().get(0).getMetadata().getName()).isEqualTo("qwen3-32b-routers");
    assertThat(Files.readString(cluster)).contains("kind: GpuCluster", "natsPort: 25222");
  }

  @Test
  void printsToStdoutWithoutOutputFile() throws IOException {
    List<String> args = new ArrayList<>(List.of("import"));
    recipes("64").forEach(p -> args.add(p.toString()));
    ValidateCommandTest.Run r = ValidateCommandTest.run(args.toArray(String[]::new));
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("# Imported by `srt-operator import` from srtctl recipes, one per arm:\n#   " + args.get(1) + "\n")
        .contains("\napiVersion: srt.dev/v1alpha1\nkind: RouterComparison\n");
  }

  /** examples/gateway-vs-dynamo-imported.yaml is what importing its two srtctl recipes writes, byte for byte. */
  @Test
  void theGatewayExampleIsTheImportOfItsRecipes() throws IOException {
    Path out = tmp.resolve("gateway-vs-dynamo.yaml");
    ValidateCommandTest.Run r = ValidateCommandTest.run("import", "examples/srtctl/gateway-vs-dynamo/gateway.yaml",
        "examples/srtctl/gateway-vs-dynamo/dynamo-kv.yaml", "--name", "qwen3-32b-gateway-vs-dynamo", "--out-file", out.toString());
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(Files.readString(out)).as("regenerate with the command in the example's first lines")
        .isEqualTo(Files.readString(Path.of("examples/gateway-vs-dynamo-imported.yaml")));
    LoadedResources loaded = LoadedResources.load(List.of(out));
    assertThat(loaded.problems()).filteredOn(Problem::isError).isEmpty();
    assertThat(loaded.comparisons().get(0).getSpec().arms).extracting(a -> a.frontend.type).containsExactly("sgl-model-gateway", "dynamo");
  }

  @Test
  void aDifferenceOutsideRoutingExitsOneAndWritesNothing() throws IOException {
    List<Path> recipes = recipes("32");
    List<String> args = new ArrayList<>(List.of("import"));
    recipes.forEach(p -> args.add(p.toString()));
    Path out = tmp.resolve("comparison.yaml");
    args.addAll(List.of("--out-file", out.toString()));
    ValidateCommandTest.Run r = ValidateCommandTest.run(args.toArray(String[]::new));
    assertThat(r.code()).isEqualTo(1);
    assertThat(out).doesNotExist();
    assertThat(r.err()).contains("backend.sglang_config.aggregated.page-size: 64 in " + recipes.get(0) + ":18, 64 in "
        + recipes.get(1) + ":18, 32 in " + recipes.get(2) + ":18", "import refused: 1 problem");
  }
}
