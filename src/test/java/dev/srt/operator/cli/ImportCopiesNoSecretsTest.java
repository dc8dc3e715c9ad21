package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.SecretEnvVar;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, hole 2, "import copies secrets into the written spec": a recipe's custom command naming
 * {@code $AWS_SECRET_ACCESS_KEY} was resolved from the importer's environment into
 * {@code workload.env}, and the comparison went to Git with the secret in it (only a {@code note:}
 * said so). A command's variables are now the run's shell's, kept literal; a name that looks secret
 * only ever becomes a {@code spec.secretEnv} reference, whatever the environment holds.
 */
class ImportCopiesNoSecretsTest {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final Map<String, String> ENVIRONMENT = Map.of("AWS_SECRET_ACCESS_KEY", SECRET, "HF_TOKEN", "hf_" + SECRET,
      "WANDB_API_KEY", "wandb-" + SECRET, "TRACE", "/traces/t.jsonl");

  @TempDir Path dir;

  private RouterComparison written(Path out) {
    LoadedResources r = LoadedResources.load(List.of(out));
    assertThat(r.problems()).filteredOn(Problem::isError).isEmpty();
    return r.comparisons().get(0);
  }

  @Test
  void theIssuesRepro_aCommandsSecretBecomesASecretEnvReference() throws Exception {
    Path recipe = ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE.replace("--ui none", "--ui none && aws s3 cp results s3://b/ "
        + "--secret \"$AWS_SECRET_ACCESS_KEY\""));
    Path out = dir.resolve("comparison.yaml");
    ImportRun.Result r = ImportRun.run(ENVIRONMENT, recipe.toString(), "--name", "gw", "--out-file", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.all(out)).doesNotContain(SECRET);
    RouterComparison rc = written(out);
    assertThat(rc.getSpec().workload.command).contains("--secret \"$AWS_SECRET_ACCESS_KEY\"");
    assertThat(rc.getSpec().workload.env).doesNotContainKey("AWS_SECRET_ACCESS_KEY");
    assertThat(rc.getSpec().secretEnv).singleElement().satisfies(s -> {
      assertThat(s.name).isEqualTo("AWS_SECRET_ACCESS_KEY");
      assertThat(s.secretKeyRef.name).isEqualTo("gw-secrets");
      assertThat(s.secretKeyRef.key).isEqualTo("AWS_SECRET_ACCESS_KEY");
    });
    assertThat(r.err()).contains("note: spec.secretEnv: create the Secret gw-secrets with the keys AWS_SECRET_ACCESS_KEY")
        .contains("kubectl label secret gw-secrets srt.dev/secret-env=true");
  }

  @Test
  void aSecretLookingNameCannotBeGivenWithEnv() throws Exception {
    Path recipe = ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE);
    Path out = dir.resolve("comparison.yaml");
    ImportRun.Result r = ImportRun.run(ENVIRONMENT, recipe.toString(), "--env", "AWS_SECRET_ACCESS_KEY", "--out-file", out.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(out).doesNotExist();
    assertThat(r.err()).contains("--env AWS_SECRET_ACCESS_KEY looks like a secret").doesNotContain(SECRET);
  }

  @Test
  void environmentEntriesThatAreSecretsBecomeReferencesAndTheirValuesAreNotWritten() throws Exception {
    Path recipe = ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE
        .replace("environment: {HF_HOME: /scratch/hf}", "environment: {HF_HOME: /scratch/hf, HF_TOKEN: \"${HF_TOKEN}\"}")
        .replace("env: {AIPERF_LOG: info}", "env: {AIPERF_LOG: info, WANDB_API_KEY: literal-" + SECRET + ", UPLOAD: $AWS_SECRET_ACCESS_KEY}"));
    Path out = dir.resolve("comparison.yaml");
    ImportRun.Result r = ImportRun.run(ENVIRONMENT, recipe.toString(), "--name", "gw", "--out-file", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.all(out)).doesNotContain(SECRET);
    RouterComparison rc = written(out);
    assertThat(rc.getSpec().secretEnv).extracting(s -> s.name + "=" + s.secretKeyRef.key)
        .containsExactlyInAnyOrder("HF_TOKEN=HF_TOKEN", "WANDB_API_KEY=WANDB_API_KEY", "UPLOAD=AWS_SECRET_ACCESS_KEY");
    assertThat(rc.getSpec().workload.env).containsEntry("AIPERF_LOG", "info").doesNotContainKeys("HF_TOKEN", "WANDB_API_KEY", "UPLOAD");
    assertThat(rc.getSpec().backend.env).containsEntry("HF_HOME", "/scratch/hf").doesNotContainKey("HF_TOKEN");
    assertThat(rc.getSpec().secretEnv).extracting((SecretEnvVar s) -> s.secretKeyRef.name).containsOnly("gw-secrets");
  }
}
