package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Validator;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.RunPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** Every rendered script of every example and valid fixture passes bash -n and shellcheck without a warning. */
class RenderedScriptsIT {
  @TempDir Path dir;

  @TestFactory
  Stream<DynamicTest> everyScriptIsCleanBash() {
    requireShellcheck();
    List<DynamicTest> tests = new ArrayList<>();
    Map<Path, List<String>> examples = new LinkedHashMap<>();
    examples.put(Examples.COMPARISON, List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy"));
    examples.put(Examples.GATEWAY, List.of("sgl-model-gateway", "dynamo-kv"));
    examples.forEach((example, arms) -> arms.forEach(arm -> {
      for (Mode mode : Mode.values()) {
        String name = example.getFileName().toString().replace(".yaml", "") + "-" + arm;
        tests.add(DynamicTest.dynamicTest(name + " " + mode.id(), () -> {
          RunPlan plan = Examples.plan(example, arm, mode);
          Path file = dir.resolve(name + "-" + Scripts.fileName(plan));
          Files.writeString(file, Scripts.render(plan));
          Bash.Result syntax = Bash.run(dir, 30, List.of("bash", "-n", file.toString()));
          assertThat(syntax.code()).as(syntax.output()).isZero();
          Bash.Result lint = Bash.run(dir, 60, List.of("shellcheck", "--severity=style", file.toString()));
          assertThat(lint.output()).isEmpty();
          assertThat(lint.code()).isZero();
        }));
      }
    }));
    return tests.stream();
  }

  /**
   * Every valid fixture, rendered for each arm: with its own cluster, or (a comparison alone) on
   * both example clusters, or (a cluster alone) under the example comparison; combinations the
   * validator rejects (a multi-node topology on a direct host) are skipped, but each fixture
   * must render at least one script.
   */
  @TestFactory
  Stream<DynamicTest> everyFixtureScriptIsCleanBash() throws Exception {
    requireShellcheck();
    List<DynamicTest> tests = new ArrayList<>();
    for (Path fixture : yamlFiles(Path.of("src/test/resources/fixtures/valid"))) {
      tests.add(DynamicTest.dynamicTest(fixture.getFileName().toString(), () -> {
        var loaded = Examples.load(fixture);
        var comparisons = loaded.comparisons().isEmpty() ? List.of(Examples.comparison()) : loaded.comparisons();
        var clusters = loaded.clusters().isEmpty() ? exampleClusters() : loaded.clusters();
        assertThat(lintEveryArm(fixture, comparisons, clusters)).as("scripts rendered from " + fixture).isPositive();
      }));
    }
    return tests.stream();
  }

  /**
   * The other example comparisons (multi-node, prefill/decode, policies), every arm on each example
   * cluster that accepts the topology.
   */
  @TestFactory
  Stream<DynamicTest> everyOtherExampleScriptIsCleanBash() throws Exception {
    requireShellcheck();
    List<DynamicTest> tests = new ArrayList<>();
    for (Path example : yamlFiles(Path.of("examples"))) {
      var comparisons = Examples.load(example).comparisons();
      if (!comparisons.isEmpty() && !example.equals(Examples.COMPARISON)) {
        tests.add(DynamicTest.dynamicTest(example.getFileName().toString(), () ->
            assertThat(lintEveryArm(example, comparisons, exampleClusters())).as("scripts rendered from " + example).isPositive()));
      }
    }
    assertThat(tests).as("example comparisons besides " + Examples.COMPARISON).isNotEmpty();
    return tests.stream();
  }

  private static void requireShellcheck() {
    if (!"1".equals(System.getenv("SRT_E2E_REQUIRED"))) {
      Assumptions.assumeTrue(Bash.onPath("shellcheck"), "shellcheck is not installed (bash .ci/install-deps.sh)");
    }
  }

  private static List<Path> yamlFiles(Path dir) throws java.io.IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  private static List<GpuCluster> exampleClusters() {
    return List.of(Examples.cluster(Examples.SLURM_CLUSTER), Examples.cluster(Examples.DIRECT_CLUSTER));
  }

  /** Renders every arm of {@code comparisons} on each cluster that accepts it, checks each script; returns how many. */
  private int lintEveryArm(Path source, List<RouterComparison> comparisons, List<GpuCluster> clusters) throws Exception {
    int rendered = 0;
    for (var rc : comparisons) {
      for (var cluster : clusters) {
        if (Validator.validate(rc, cluster).stream().anyMatch(dev.srt.operator.config.Problem::isError)) {
          continue;
        }
        for (var arm : rc.getSpec().arms) {
          RunPlan plan = Planner.plan(rc, cluster, arm.name, null);
          Path file = dir.resolve(source.getFileName() + "-" + cluster.getSpec().mode + "-" + arm.name + "-" + Scripts.fileName(plan));
          Files.writeString(file, Scripts.render(plan));
          Bash.Result syntax = Bash.run(dir, 30, List.of("bash", "-n", file.toString()));
          assertThat(syntax.code()).as(syntax.output()).isZero();
          Bash.Result lint = Bash.run(dir, 60, List.of("shellcheck", "--severity=style", file.toString()));
          assertThat(lint.output()).as(file.toString()).isEmpty();
          rendered++;
        }
      }
    }
    return rendered;
  }
}
