package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.host.SecretEnvFile;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code apply --secret-env NAME}: values come from the CLI's own environment, and every declared name needs one. */
class SecretEnvValuesTest {
  private static final Map<String, String> ENV = Map.of("HF_TOKEN", "hf_v4lue", "WANDB_API_KEY", "w4ndb", "HOME", "/root");

  @Test
  void eachDeclaredNameTakesTheValueOfTheSameVariable() throws Exception {
    SecretEnvFile file = SecretEnvValues.of(List.of("WANDB_API_KEY", "HF_TOKEN"), List.of("HF_TOKEN", "WANDB_API_KEY"), ENV);
    assertThat(file.names()).containsExactly("WANDB_API_KEY", "HF_TOKEN");
    assertThat(new String(file.content(), StandardCharsets.UTF_8)).isEqualTo("export WANDB_API_KEY=w4ndb\nexport HF_TOKEN=hf_v4lue\n");
    assertThat(SecretEnvValues.of(List.of(), List.of(), ENV).isEmpty()).isTrue();
  }

  @Test
  void aDeclaredNameWithoutTheOptionIsAnErrorNamingIt() {
    assertThatThrownBy(() -> SecretEnvValues.of(List.of("HF_TOKEN"), List.of(), ENV))
        .isInstanceOf(ApplyCommand.UsageError.class)
        .hasMessageContaining("spec.secretEnv declares HF_TOKEN: pass --secret-env HF_TOKEN")
        .hasMessageContaining("nothing was submitted");
  }

  @Test
  void anUnsetVariableOrAnUndeclaredNameIsAnErrorThatShowsNoValue() {
    assertThatThrownBy(() -> SecretEnvValues.of(List.of("HF_TOKEN", "OPENAI_API_KEY"), List.of("HF_TOKEN", "OPENAI_API_KEY", "HOME"), ENV))
        .isInstanceOf(ApplyCommand.UsageError.class)
        .hasMessageContaining("--secret-env OPENAI_API_KEY: the environment variable OPENAI_API_KEY is not set")
        .hasMessageContaining("--secret-env HOME: no spec.secretEnv entry of the comparison or the GpuCluster declares HOME")
        .hasMessageNotContaining("hf_v4lue")
        .hasMessageNotContaining("/root");
  }
}
