package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, hole 4, "a recipe file name can add a YAML document": a name with carriage returns
 * became a second document (a {@code transport: local} GpuCluster with {@code allowCustomWorkloads:
 * true}) through the provenance comment, which escaped only {@code \n}. File names are escaped for
 * YAML and the terminal wherever the import writes or prints them.
 */
class RecipeFileNameAddsNoYamlDocumentTest {
  @TempDir Path dir;

  @Test
  void theIssuesReproStaysOneCommentLine() throws Exception {
    String injected = "\r---\rapiVersion: srt.dev/v1alpha1\rkind: GpuCluster\rmetadata: {name: evil}\r"
        + "spec: {mode: direct, transport: local, workDir: /tmp, allowCustomWorkloads: true}\r#";
    for (String breakChar : List.of("\r", "\u0085", "\u2028", "\u2029")) {
      Path sub = Files.createDirectories(dir.resolve("d" + (int) breakChar.charAt(0)));
      // A file name cannot hold '/': the attacker's path has directories where the injected YAML has slashes.
      Path recipe = sub.resolve("arm" + injected.replace("\r", breakChar) + ".yaml");
      Files.createDirectories(recipe.getParent());
      Files.writeString(recipe, ImportRun.RECIPE);
      Path out = sub.resolve("comparison.yaml");
      ImportRun.Result r = ImportRun.run(Map.of(), recipe.toString(), "--name", "gw", "--out-file", out.toString());
      assertThat(r.code()).as(r.err()).isZero();
      String written = Files.readString(out);
      assertThat(written.lines().limit(2)).as("the provenance: its header and one line").last().asString()
          .startsWith("#   ").doesNotContain(breakChar);
      LoadedResources loaded = LoadedResources.load(List.of(out));
      assertThat(loaded.problems()).filteredOn(Problem::isError).isEmpty();
      assertThat(loaded.clusters()).as("documents of the written file").isEmpty();
      assertThat(loaded.comparisons()).hasSize(1);
      // Nothing the import prints reaches the terminal raw either.
      assertThat(r.err()).doesNotContain(breakChar);
    }
  }

  @Test
  void escapesAndControlCharactersInAFileNameArePrintedEscaped() throws Exception {
    Path recipe = ImportRun.write(dir, "arm\u001b]0;owned\u0007\u001b[2J.yaml", ImportRun.RECIPE.replace("container: lmsysorg/sglang:dev}", "container: lmsysorg/sglang:dev, precision: fp8}"));
    ImportRun.Result r = ImportRun.run(Map.of(), recipe.toString(), "--out-file", dir.resolve("c.yaml").toString());
    assertThat(r.err()).doesNotContain("\u001b").doesNotContain("\u0007").contains("arm\\u001B]0;owned\\u0007\\u001B[2J.yaml");
    assertThat(Files.readString(dir.resolve("c.yaml"))).doesNotContain("\u001b");
  }
}
