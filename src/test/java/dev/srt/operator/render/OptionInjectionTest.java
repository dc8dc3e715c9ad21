package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.plan.BuildStage;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, finding 5: a value from the spec is never read as an option. Build steps put {@code --}
 * before every operand that comes from the spec, git URLs are validated, and {@code #SBATCH}
 * values are one word of safe characters (sbatch splits its directive lines on whitespace).
 */
class OptionInjectionTest {
  private static final String OPTION = "--upload-pack=touch /tmp/srt-option-injection";
  private static final Set<String> OPERAND_PROGRAMS = Set.of("cp", "rm", "mkdir");

  @TempDir Path dir;

  private static RouterComparison comparison(Consumer<RouterComparison> edit) {
    RouterComparison rc = Examples.comparison();
    edit.accept(rc);
    return rc;
  }

  private static List<String> errorPaths(RouterComparison rc) {
    return Validator.validate(rc, Examples.cluster(Examples.DIRECT_CLUSTER)).stream().filter(Problem::isError).map(Problem::path).toList();
  }

  private static List<String> errorPaths(GpuCluster c) {
    return Validator.validate(c).stream().filter(Problem::isError).map(Problem::path).toList();
  }

  @Test
  void gitAndFileOperandsFollowDoubleDash() {
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      for (Mode mode : Mode.values()) {
        for (BuildStage stage : Examples.plan(arm, mode).builds()) {
          for (List<String> step : stage.steps()) {
            if (step.get(0).equals("git") && (step.contains("clone") || step.contains("fetch"))) {
              // git clone --no-checkout -- URL DIR; git -C DIR fetch --depth 1 -- origin REV
              assertThat(step.get(step.size() - 3)).as("%s", step).isEqualTo("--");
            }
            if (OPERAND_PROGRAMS.contains(step.get(0))) {
              // Every word after the program's own flags is an operand, after --.
              int firstOperand = (int) step.stream().skip(1).takeWhile(w -> w.startsWith("-") && !w.equals("--")).count() + 1;
              assertThat(step.get(firstOperand)).as("%s", step).isEqualTo("--");
            }
            if (step.contains("pip") && step.contains("install") && !step.contains("--upgrade")) {
              assertThat(step).as("%s", step).contains("--");
            }
          }
        }
      }
    }
  }

  @Test
  void aWheelPathAndTheLibrarysHelpersTakeOperandsAfterDoubleDash() {
    RouterComparison rc = comparison(c -> {
      c.getSpec().dynamo.hash = null;
      c.getSpec().dynamo.wheel = "/wheels/ai_dynamo-0.6.1-py3-none-any.whl";
      c.getSpec().arms.remove(2);
    });
    RunPlan plan = Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "dynamo-kv", Mode.DIRECT);
    assertThat(plan.builds().get(0).steps().get(0)).endsWith("--", "/wheels/ai_dynamo-0.6.1-py3-none-any.whl");
    assertThat(BashLibrary.text())
        .contains("\"$python\" -m pip install --no-deps --target \"$target\" -- \"${wheels[@]}\"")
        .contains("(cd -- \"$dir\" && \"$@\")")
        .contains("(cd -- \"$1\" && tar")
        .contains("rm -rf -- \"$cache\"");
  }

  /** Real git: the rendered clone step with an option as the URL clones nothing and runs nothing. */
  @Test
  void gitReadsTheUrlAsARepositoryNotAsAnOption() throws Exception {
    Path marker = dir.resolve("marker");
    String option = "--upload-pack=touch " + marker;
    RouterComparison rc = comparison(c -> c.getSpec().arms.get(2).dynamo.policyCatalog.git = option);
    assertThat(errorPaths(rc)).containsExactly("spec.arms[2].dynamo.policyCatalog.git");
    // The renderer's side, with validation bypassed.
    RunPlan plan = Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "dynamo-kv-policy", Mode.DIRECT);
    List<String> clone = plan.builds().get(0).steps().stream().filter(s -> s.contains(option)).findFirst().orElseThrow();
    List<String> argv = new ArrayList<>(clone);
    argv.set(argv.size() - 1, dir.resolve("checkout").toString());
    Process git = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(git.getInputStream().readAllBytes());
    assertThat(git.waitFor()).as(output).isNotZero();
    assertThat(output).contains("does not exist");
    assertThat(marker).doesNotExist();
  }

  @Test
  void gitUrlsAreHttpsSshScpLikeOrAnAbsolutePath() {
    for (String ok : List.of("https://github.com/ai-dynamo/dynamo", "https://github.com/ai-dynamo/dynamo.git", "https://git.example.com:8443/a/b",
        "ssh://git@github.com/ai-dynamo/dynamo.git", "ssh://github.com:2222/x", "git@github.com:ai-dynamo/dynamo.git", "/srv/git/dynamo.git")) {
      assertThat(errorPaths(comparison(c -> c.getSpec().dynamo.source.git = ok))).as(ok).isEmpty();
      assertThat(errorPaths(comparison(c -> c.getSpec().arms.get(2).dynamo.policyCatalog.git = ok))).as(ok).isEmpty();
    }
    for (String bad : List.of(OPTION, "-u touch /tmp/x", "ext::sh -c touch% /tmp/x", "file::/tmp/x", "fd::17", "ssh://-oProxyCommand=touch/x",
        "https://-x/y", "ssh://host/x y", "https://host/x\ny", "git@host:x;y", "http://github.com/x", "git://github.com/x", "file:///tmp/x",
        "/srv/../etc", "relative/path", "", "-")) {
      assertThat(errorPaths(comparison(c -> c.getSpec().dynamo.source.git = bad))).as(bad).containsExactly("spec.dynamo.source.git");
      assertThat(errorPaths(comparison(c -> c.getSpec().arms.get(2).dynamo.policyCatalog.git = bad))).as(bad)
          .containsExactly("spec.arms[2].dynamo.policyCatalog.git");
    }
  }

  @Test
  void sbatchValuesCannotAddOptions() {
    String partition = "batch --chdir=/ --export=ALL,LD_PRELOAD=/tmp/x.so";
    GpuCluster c = Examples.cluster(Examples.SLURM_CLUSTER);
    c.getSpec().slurm.partition = partition;
    assertThat(errorPaths(c)).containsExactly("spec.slurm.partition");
    for (String bad : List.of("a b", "a\tb", "a\"b", "a'b", "a#b", "a\\b", "$(id)", "`id`", "a;b")) {
      GpuCluster d = Examples.cluster(Examples.SLURM_CLUSTER);
      d.getSpec().slurm.account = bad;
      d.getSpec().slurm.sbatchDirectives.put("comment", bad);
      d.getSpec().slurm.srunOptions.put("export", bad);
      assertThat(errorPaths(d)).as(bad).contains("spec.slurm.account", "spec.slurm.sbatchDirectives.comment", "spec.slurm.srunOptions.export");
    }
    GpuCluster ok = Examples.cluster(Examples.SLURM_CLUSTER);
    ok.getSpec().slurm.sbatchDirectives.put("constraint", "a100&ib");
    ok.getSpec().slurm.sbatchDirectives.put("nodelist", "node[01-04]");
    ok.getSpec().slurm.sbatchDirectives.put("mail-user", "bench@example.com");
    ok.getSpec().slurm.srunOptions.put("container-env", "HF_HOME,{{run_dir}}");
    assertThat(errorPaths(ok)).isEmpty();
    // The renderer refuses such a value too, should it ever get one, instead of writing two options.
    RunPlan plan = Planner.plan(Examples.comparison(), c, "sgl-router", Mode.SLURM);
    assertThatThrownBy(() -> Scripts.render(plan)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("#SBATCH --partition");
    // Every #SBATCH line of a valid cluster is one option.
    String script = Scripts.render(Planner.plan(Examples.comparison(), ok, "dynamo-kv", Mode.SLURM));
    assertThat(script.lines().filter(l -> l.startsWith("#SBATCH"))).hasSizeGreaterThan(8)
        .allSatisfy(l -> assertThat(l).matches("#SBATCH --[a-z-]+(=\\S+)?"));
  }

  @Test
  void valuesOtherProgramsWouldReadAsOptionsAreRejected() {
    assertThat(errorPaths(comparison(c -> c.getSpec().model.servedModelName = "--trust-remote-code"))).containsExactly("spec.model.servedModelName");
    assertThat(errorPaths(comparison(c -> c.getSpec().arms.get(2).dynamo.policyCatalog.features = List.of("--config=x"))))
        .containsExactly("spec.arms[2].dynamo.policyCatalog.features[0]");
    assertThat(errorPaths(comparison(c -> {
      c.getSpec().dynamo.hash = null;
      c.getSpec().arms.remove(2);
      c.getSpec().dynamo.version = "0.6.1 --index-url=https://example.com";
    }))).containsExactly("spec.dynamo.version");
    GpuCluster c = Examples.cluster(Examples.DIRECT_CLUSTER);
    c.getSpec().python = "-c";
    c.getSpec().container = new dev.srt.operator.api.ContainerSpec();
    c.getSpec().container.runtime = "docker";
    c.getSpec().container.image = "--privileged";
    c.getSpec().container.mounts = List.of("--volume=/:/host");
    assertThat(errorPaths(c)).containsExactlyInAnyOrder("spec.python", "spec.container.image", "spec.container.mounts[0]");
  }

  @Test
  void workDirIsLimitedToSafeCharacters() {
    for (String bad : List.of("/tmp/w'$(touch /tmp/M)'", "/tmp/a b", "/tmp/a:b", "/tmp/a,b", "/tmp/$HOME", "/tmp/../etc", "/tmp/x\n")) {
      GpuCluster c = Examples.cluster(Examples.DIRECT_CLUSTER);
      c.getSpec().workDir = bad;
      assertThat(Validator.validate(c)).as(bad).filteredOn(Problem::isError).extracting(Problem::path).contains("spec.workDir").containsOnly("spec.workDir");
    }
    GpuCluster c = Examples.cluster(Examples.DIRECT_CLUSTER);
    c.getSpec().workDir = "/scratch/srt-operator_2/v1.2+x";
    assertThat(errorPaths(c)).isEmpty();
  }
}
