package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.SchemaDefaults;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.plan.SpecHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The CRDs' schema defaults mean what no value means: the API server writes them into every
 * object it hands the operator, so each example and valid fixture, with every default written
 * out as the API server would, must validate with the same problems, plan the same runs, render
 * the same scripts and hash to the same spec hash (no arm runs again because of a default).
 */
class SchemaDefaultsTest {
  private static RouterComparison defaulted(RouterComparison rc) {
    RouterComparison copy = Mappers.json().convertValue(rc, RouterComparison.class);
    copy.setSpec(SchemaDefaults.filled(rc.getSpec()));
    return copy;
  }

  private static GpuCluster defaulted(GpuCluster c) {
    GpuCluster copy = Mappers.json().convertValue(c, GpuCluster.class);
    copy.setSpec(SchemaDefaults.filled(c.getSpec()));
    return copy;
  }

  private static List<String> problems(List<Problem> problems) {
    return problems.stream().map(Problem::describe).toList();
  }

  @Test
  void fillingWritesTheDefaultsAndClearingTakesThemOut() {
    GpuCluster c = Examples.parse("""
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: box}
        spec:
          mode: direct
          workDir: /scratch
          ssh: {host: gpu-01, user: bench, privateKeyFile: /k, knownHostsFile: /h}
        """).clusters().get(0);
    assertThat(c.getSpec().gpusPerNode).isNull();
    GpuCluster filled = defaulted(c);
    assertThat(filled.getSpec().gpusPerNode).isEqualTo(8);
    assertThat(filled.getSpec().transport).isEqualTo("ssh");
    assertThat(filled.getSpec().ssh.port).isEqualTo(22);
    assertThat(filled.getSpec().slurm).as("no object is made up").isNull();
    assertThat(Mappers.json().<com.fasterxml.jackson.databind.JsonNode>valueToTree(SchemaDefaults.cleared(filled.getSpec())))
        .isEqualTo(Mappers.json().<com.fasterxml.jackson.databind.JsonNode>valueToTree(c.getSpec()));
  }

  @TestFactory
  Stream<DynamicTest> everyExampleAndValidFixtureMeansTheSameWithItsDefaultsWrittenOut() throws Exception {
    List<Path> files = new ArrayList<>();
    for (Path dir : List.of(Path.of("examples"), Path.of("src/test/resources/fixtures/valid"))) {
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(f -> f.toString().endsWith(".yaml")).sorted().forEach(files::add);
      }
    }
    List<GpuCluster> exampleClusters = List.of(Examples.cluster(Examples.SLURM_CLUSTER), Examples.cluster(Examples.DIRECT_CLUSTER));
    return files.stream().map(file -> DynamicTest.dynamicTest(file.toString(), () -> {
      LoadedResources loaded = Examples.load(file);
      List<GpuCluster> clusters = loaded.clusters().isEmpty() ? exampleClusters : loaded.clusters();
      List<RouterComparison> comparisons = loaded.comparisons().isEmpty() ? List.of(Examples.comparison()) : loaded.comparisons();
      for (GpuCluster cluster : clusters) {
        assertThat(problems(Validator.validate(defaulted(cluster)))).isEqualTo(problems(Validator.validate(cluster)));
        for (RouterComparison rc : comparisons) {
          List<String> before = problems(Validator.validate(rc, cluster));
          assertThat(problems(Validator.validate(defaulted(rc), defaulted(cluster)))).as("problems").isEqualTo(before);
          if (Validator.validate(rc, cluster).stream().anyMatch(Problem::isError)) {
            continue;
          }
          for (var arm : rc.getSpec().arms) {
            RunPlan plan = Planner.plan(rc, cluster, arm.name, null);
            RunPlan planDefaulted = Planner.plan(defaulted(rc), defaulted(cluster), arm.name, null);
            assertThat(Mappers.json().writeValueAsString(planDefaulted)).as("plan of %s", arm.name)
                .isEqualTo(Mappers.json().writeValueAsString(plan));
            assertThat(Scripts.render(planDefaulted)).as("script of %s", arm.name).isEqualTo(Scripts.render(plan));
            assertThat(SpecHash.of(defaulted(rc).getSpec(), defaulted(rc).getSpec().arms.stream().filter(a -> a.name.equals(arm.name))
                .findFirst().orElseThrow(), defaulted(cluster).getSpec()))
                .as("spec hash of %s", arm.name).isEqualTo(SpecHash.of(rc.getSpec(), arm, cluster.getSpec()));
          }
        }
      }
    }));
  }
}
