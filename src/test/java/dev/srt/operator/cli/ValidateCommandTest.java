package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.testinfra.Fixture;
import dev.srt.operator.testinfra.YamlLines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code srt-operator validate -f FILE...}: FILE:LINE: PATH: message per problem, exit 0 or 1. */
class ValidateCommandTest {
  private static final String SLURM = "examples/gpu-cluster-slurm.yaml";
  private static final String DIRECT = "examples/gpu-cluster-direct.yaml";
  private static final String COMPARISON = "examples/router-comparison.yaml";
  private static final String UNKNOWN_TIME = "  estimated benchmark time: unknown (without spec.workload.load the benchmark stops after its "
      + "own request count); at most 24h per run (execution.maxDuration)";

  record Run(int code, String out, String err) {
    List<String> outLines() {
      return out.lines().toList();
    }
  }

  static Run run(String... args) {
    return capture(() -> Main.run(args));
  }

  /** What {@code command} prints to stdout and stderr, and the exit code it returns. */
  static Run capture(java.util.function.IntSupplier command) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      code = command.getAsInt();
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new Run(code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theExamplesAreValid() {
    Run r = run("validate", "-f", SLURM, "-f", COMPARISON);
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.outLines()).containsExactly(
        "valid: RouterComparison qwen3-32b-routers (3 arms, on GpuCluster h100-box)",
        UNKNOWN_TIME,
        "valid: GpuCluster h100-box (slurm)");
    assertThat(r.err()).isEmpty();
    // the same comparison on the direct host, given as --cluster
    Run direct = run("validate", "-f", COMPARISON, "--cluster", DIRECT);
    assertThat(direct.code()).as(direct.toString()).isZero();
    assertThat(direct.outLines()).contains("valid: GpuCluster h100-box (direct)");
  }

  @Test
  void severalFilesAfterOneOption() {
    Run r = run("validate", "-f", DIRECT, COMPARISON);
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.outLines()).hasSize(3);
  }

  @Test
  void eachProblemIsOneLineFileLinePathMessage() {
    Fixture f = Fixture.read(Fixture.ROOT.resolve("invalid/three-mistakes.yaml"));
    String file = f.file().toString();
    Run r = run("validate", "-f", file);
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    Pattern line = Pattern.compile("^" + Pattern.quote(file) + ":(\\d+): (\\S+): (.+)$");
    YamlLines yaml = new YamlLines(f.text());
    assertThat(r.outLines()).hasSize(3).allSatisfy(l -> {
      Matcher m = line.matcher(l);
      assertThat(m.matches()).as("FILE:LINE: PATH: message, got %s", l).isTrue();
      assertThat(Integer.parseInt(m.group(1))).as(l).isEqualTo(yaml.lineOf(0, m.group(2)));
    });
    assertThat(r.outLines()).containsExactly(
        file + ":" + yaml.lineOf(0, "spec.model.path") + ": spec.model.path: must be an absolute host path, not ~/models/Qwen3-32B-FP8",
        file + ":" + yaml.lineOf(0, "spec.dynamo.hash") + ": spec.dynamo.hash: must be a full 40-hex commit, not 4DCA1626B2708383514FCD65AC816BA7429C05A4",
        file + ":" + yaml.lineOf(0, "spec.arms[1].name") + ": spec.arms[1].name: must be a DNS label: lower-case letters, digits and '-', at most 63 characters");
    assertThat(r.err()).isEqualTo("3 problems found" + System.lineSeparator());
  }

  @Test
  void multiDocumentFiles(@TempDir Path dir) throws IOException {
    Path both = dir.resolve("both.yaml");
    Files.writeString(both, Files.readString(Path.of(DIRECT)) + "---\n" + Files.readString(Path.of(COMPARISON)));
    Run ok = run("validate", "-f", both.toString());
    assertThat(ok.code()).as(ok.toString()).isZero();
    assertThat(ok.outLines()).containsExactly(
        "valid: RouterComparison qwen3-32b-routers (3 arms, on GpuCluster h100-box)", UNKNOWN_TIME, "valid: GpuCluster h100-box (direct)");

    // The cluster in the first document is used by the comparison in the second, and the line
    // counts from the top of the file.
    Fixture f = Fixture.read(Fixture.ROOT.resolve("invalid/resources-too-many-gpus-for-cluster.yaml"));
    Run bad = run("validate", "-f", f.file().toString());
    assertThat(bad.code()).isEqualTo(1);
    int line = new YamlLines(f.text()).lineOf(1, "spec.resources");
    assertThat(line).isGreaterThan(new YamlLines(f.text()).documentStarts().get(1));
    assertThat(bad.outLines()).containsExactly(f.file() + ":" + line
        + ": spec.resources: aggWorkers x gpusPerWorker = 8 GPUs, more than aggNodes x gpusPerNode = 4");
  }

  @Test
  void unreadableFiles(@TempDir Path dir) {
    Path missing = dir.resolve("missing.yaml");
    Run r = run("validate", "-f", missing.toString(), "-f", dir.toString(), "-f", DIRECT);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.outLines()).hasSize(2);
    assertThat(r.outLines().get(0)).isEqualTo(missing + ":1: cannot read: no such file");
    assertThat(r.outLines().get(1)).startsWith(dir + ":1: cannot read: ");
    assertThat(r.out()).doesNotContain("valid:");
    assertThat(r.err()).contains("2 problems found");
  }

  @Test
  void notYaml(@TempDir Path dir) throws IOException {
    Path broken = dir.resolve("broken.yaml");
    Files.writeString(broken, "apiVersion: srt.dev/v1alpha1\nkind: GpuCluster\nspec: {mode: direct\n");
    Run r = run("validate", "-f", broken.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.outLines()).singleElement().asString().startsWith(broken + ":").contains(": not valid YAML: ");
  }

  @Test
  void withoutFilesItIsAUsageError() {
    Run r = run("validate");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("Missing required option").contains("--filename");
  }
}
