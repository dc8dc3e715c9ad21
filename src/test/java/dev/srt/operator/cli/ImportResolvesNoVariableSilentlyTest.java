package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, hole 3, "{@code ${VAR}} is resolved into any recipe value (served model name, env,
 * frontend args, sbatch directives) and echoed in refusal messages" ({@code model.path: <the
 * secret> in e.yaml:2}). A value's variable is resolved only when given with {@code --env NAME};
 * otherwise the import is refused naming the variable and its FILE:LINE; a secret-looking name is
 * never resolved; and no message shows a value that was resolved.
 */
class ImportResolvesNoVariableSilentlyTest {
  private static final String VALUE = "value-from-the-importers-environment";

  @TempDir Path dir;

  /** The recipe with {@code ${X}} in the served model name, an env value, a router flag and an sbatch directive. */
  private Path recipe() throws Exception {
    return ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE
        .replace("served-model-name: Qwen/Qwen3-32B-FP8", "served-model-name: \"Qwen/${X}\"")
        .replace("environment: {HF_HOME: /scratch/hf}", "environment: {HF_HOME: /scratch/hf, MODE: $X}")
        .replace("args: {policy: cache_aware}", "args: {policy: cache_aware, request-id-headers: \"x-${X}\"}")
        .replace("comment: bench}", "comment: \"b-${X}\"}"));
  }

  @Test
  void aVariableNotGivenWithEnvRefusesNamingItAndItsLine() throws Exception {
    Path recipe = recipe();
    Path out = dir.resolve("c.yaml");
    Path cluster = dir.resolve("cluster.yaml");
    ImportRun.Result r = ImportRun.run(Map.of("X", VALUE), recipe.toString(), "--out-file", out.toString(), "--cluster-out", cluster.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(out).doesNotExist();
    assertThat(cluster).doesNotExist();
    assertThat(r.err()).doesNotContain(VALUE).contains(
        recipe + ":5: sbatch_directives.comment: $X is not resolved: give --env X",
        recipe + ":8: environment.MODE: $X is not resolved",
        recipe + ":13: backend.sglang_config.aggregated.served-model-name: $X is not resolved",
        recipe + ":22: frontend.args.request-id-headers: $X is not resolved");
  }

  @Test
  void aVariableGivenButNotSetRefusesBeforeAnythingIsRead() throws Exception {
    ImportRun.Result r = ImportRun.run(Map.of(), recipe().toString(), "--env", "X", "--out-file", dir.resolve("c.yaml").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("--env X is not set in this environment");
    assertThat(dir.resolve("c.yaml")).doesNotExist();
  }

  @Test
  void givenWithEnvItIsResolvedAndWritten() throws Exception {
    Path out = dir.resolve("c.yaml");
    Path cluster = dir.resolve("cluster.yaml");
    ImportRun.Result r = ImportRun.run(Map.of("X", VALUE), recipe().toString(), "--env", "X", "--out-file", out.toString(),
        "--cluster-out", cluster.toString());
    assertThat(r.code()).as(r.err()).isZero();
    LoadedResources loaded = LoadedResources.load(List.of(out, cluster));
    RouterComparison rc = loaded.comparisons().get(0);
    GpuCluster c = loaded.clusters().get(0);
    assertThat(rc.getSpec().model.servedModelName).isEqualTo("Qwen/" + VALUE);
    assertThat(rc.getSpec().backend.env).containsEntry("MODE", VALUE);
    assertThat(rc.getSpec().arms.get(0).frontend.args).containsEntry("request-id-headers", "x-" + VALUE);
    assertThat(c.getSpec().slurm.sbatchDirectives).containsEntry("comment", "b-" + VALUE);
  }

  @Test
  void aSecretLookingVariableInsideAValueIsNeverResolved() throws Exception {
    Path recipe = ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE.replace("path: /models/Qwen3-32B-FP8", "path: \"/models/${API_KEY}\""));
    ImportRun.Result r = ImportRun.run(Map.of("API_KEY", VALUE), recipe.toString(), "--out-file", dir.resolve("c.yaml").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).doesNotContain(VALUE)
        .contains(recipe + ":2: model.path: $API_KEY looks like a secret: it is never resolved into the comparison");
  }

  /** The echo: a resolved value that fails validation is named by its variable, never shown. */
  @Test
  void noRefusalEchoesAResolvedValue() throws Exception {
    String relative = "relative/models/" + "m".repeat(120); // longer than a message shows: cut there too
    Path recipe = ImportRun.write(dir, "e.yaml", ImportRun.RECIPE.replace("path: /models/Qwen3-32B-FP8", "path: $MODEL_DIR"));
    ImportRun.Result r = ImportRun.run(Map.of("MODEL_DIR", relative), recipe.toString(), "--env", "MODEL_DIR", "--out-file",
        dir.resolve("c.yaml").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("spec.model.path: must be an absolute host path, not ${MODEL_DIR}")
        .doesNotContain("relative/models/mmmm");
    // The fairness check shows values as written, too.
    Path other = ImportRun.write(dir, "f.yaml", ImportRun.RECIPE.replace("name: gateway", "name: other")
        .replace("path: /models/Qwen3-32B-FP8", "path: /models/other"));
    r = ImportRun.run(Map.of("MODEL_DIR", "/models/" + VALUE), recipe.toString(), other.toString(), "--env", "MODEL_DIR");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("model.path: $MODEL_DIR in " + recipe + ":2, /models/other in " + other + ":2").doesNotContain(VALUE);
  }
}
