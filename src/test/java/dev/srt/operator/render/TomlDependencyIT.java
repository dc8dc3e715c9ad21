package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The library's TOML dependency override replaces only the named declaration. */
class TomlDependencyIT {
  @TempDir Path dir;

  static final String CRATE = """
      [package]
      name = "sgl-router-cache-aware-dynamo-policy"

      [dependencies]
      dynamo-kv-router = { git = "https://github.com/ai-dynamo/dynamo.git", branch = "main", features = ["standalone-selection"] }
      dynamo-kv-router-extras = "1"
      serde = "1"
      """;

  Bash.Result override(Path file, String name, String line) throws Exception {
    return Bash.script(dir, 30, "SRT_PYTHON=python3\n" + BashLibrary.text() + "\nsrt_set_toml_dependency \"$@\"",
        file.toString(), name, line);
  }

  @Test
  void replacesOnlyTheNamedDeclaration() throws Exception {
    Path file = dir.resolve("Cargo.toml");
    Files.writeString(file, CRATE);
    String line = "dynamo-kv-router = { path = \"/build/dynamo/lib/kv-router\", features = [\"standalone-selection\"] }";
    Bash.Result r = override(file, "dynamo-kv-router", line);
    assertThat(r.code()).as(r.output()).isZero();
    String text = Files.readString(file);
    assertThat(text).contains(line).doesNotContain("github.com/ai-dynamo")
        .contains("dynamo-kv-router-extras = \"1\"").contains("serde = \"1\"");
  }

  @Test
  void failsWhenTheDeclarationIsMissing() throws Exception {
    Path file = dir.resolve("Cargo.toml");
    Files.writeString(file, "[dependencies]\nserde = \"1\"\n");
    Bash.Result r = override(file, "dynamo-worker-selection-policy-catalog", "x = 1");
    assertThat(r.code()).isNotZero();
    assertThat(r.output()).contains("no declaration of dynamo-worker-selection-policy-catalog");
    assertThat(Files.readString(file)).isEqualTo("[dependencies]\nserde = \"1\"\n");
  }
}
