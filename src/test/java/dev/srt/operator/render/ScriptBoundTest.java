package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.api.Mode;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ScriptBound} (from the plan, and the looser one from the spec) is an upper bound of the rendered script, for every plan the examples, the
 * valid fixtures and the shell-injection variants make (also with quote-heavy values everywhere the
 * launcher repeats them), so that skipping the exact measure below it never lets a script beyond
 * the limit through; and it stays far below the limit for real specs, so the measure is rare.
 */
class ScriptBoundTest {
  @TempDir Path dir;

  private int checked;
  private long largestRatio;

  private void check(RouterComparison rc, GpuCluster cluster) {
    for (Mode mode : Mode.values()) {
      if (cluster != null && !mode.id().equals(cluster.getSpec().mode)) {
        continue;
      }
      if (Validator.validate(rc, cluster, mode).stream().anyMatch(Problem::isError)) {
        continue;
      }
      for (var arm : rc.getSpec().arms) {
        RunPlan plan = Planner.plan(rc, cluster, arm.name, mode);
        long actual = Scripts.render(plan).getBytes(StandardCharsets.UTF_8).length;
        long bound = ScriptBound.of(plan);
        assertThat(bound).as("%s %s %s", rc.getMetadata().getName(), arm.name, mode).isGreaterThanOrEqualTo(actual);
        assertThat(ScriptBound.of(rc, cluster)).as("from the spec: %s %s %s", rc.getMetadata().getName(), arm.name, mode)
            .isGreaterThanOrEqualTo(actual);
        largestRatio = Math.max(largestRatio, bound / actual);
        checked++;
      }
    }
  }

  @Test
  void theBoundHoldsForEveryExampleAndFixture() throws Exception {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> examples = Files.list(Path.of("examples")); Stream<Path> fixtures = Files.list(Path.of("src/test/resources/fixtures/valid"))) {
      Stream.concat(examples, fixtures).filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(files::add);
    }
    List<GpuCluster> exampleClusters = List.of(Examples.cluster(Examples.SLURM_CLUSTER), Examples.cluster(Examples.DIRECT_CLUSTER));
    for (Path file : files) {
      var loaded = Examples.load(file);
      var comparisons = loaded.comparisons().isEmpty() ? List.of(Examples.comparison()) : loaded.comparisons();
      var clusters = loaded.clusters().isEmpty() ? exampleClusters : loaded.clusters();
      for (RouterComparison rc : comparisons) {
        for (GpuCluster c : clusters) {
          check(rc, c);
        }
      }
    }
    assertThat(checked).isGreaterThan(50);
    // Far below the limit for real specs: the exact measure is for the rare large one.
    RunPlan example = Examples.plan("dynamo-kv-policy", Mode.SLURM);
    assertThat(ScriptBound.of(example)).isLessThan(2L << 20);
    assertThat(ScriptBound.of(Examples.comparison(), Examples.cluster(Examples.SLURM_CLUSTER))).as("not even planned")
        .isLessThan(dev.srt.operator.api.Limits.MAX_SCRIPT_BYTES);
  }

  /** The shell-injection variants, with a quote (written '\'' by the renderer) in every string the launcher repeats per line. */
  @Test
  void theBoundHoldsForQuoteHeavyValuesEverywhere() throws Exception {
    String quotes = "'".repeat(200);
    for (ShellInjectionPropertyIT.Variant v : ShellInjectionPropertyIT.Variants.all(dir)) {
      for (var cluster : v.clusters().values()) {
        ObjectNode c = cluster.deepCopy();
        ObjectNode spec = (ObjectNode) c.get("spec");
        spec.putObject("env").put("HF_HOME", "/scratch/" + quotes).put("QUOTED", quotes);
        if (spec.has("slurm")) {
          ((ObjectNode) spec.get("slurm")).putObject("srunOptions").put("comment", "c" + "&".repeat(300));
        }
        if (spec.has("container")) {
          ((ObjectNode) spec.get("container")).putArray("mounts").add("/data/" + "a".repeat(300) + ":/data");
        }
        ObjectNode rc = v.rc().deepCopy();
        ObjectNode backend = (ObjectNode) rc.get("spec").get("backend");
        backend.putObject("env").put("Q", quotes + "é漢🙂");
        // The model's path is in every worker's flags and, with a container, twice in its mounts: the most repeated value.
        ((ObjectNode) rc.get("spec").get("model")).put("path", "/models/" + "'".repeat(4000));
        check(Mappers.json().treeToValue(rc, RouterComparison.class), Mappers.json().treeToValue(c, GpuCluster.class));
      }
    }
    assertThat(checked).isGreaterThan(10);
  }

  @Test
  void theBoundHoldsForTheLargestTopology() throws Exception {
    var loaded = Examples.load(Path.of("src/test/resources/fixtures/valid/limits.yaml"));
    RouterComparison rc = loaded.comparisons().get(0);
    rc.getSpec().backend.env = new java.util.LinkedHashMap<>(Map.of("PAD", "'".repeat(1000)));
    check(rc, loaded.clusters().get(0));
    assertThat(checked).isPositive();
  }
}
