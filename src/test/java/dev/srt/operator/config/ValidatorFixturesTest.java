package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.testinfra.Fixture;
import dev.srt.operator.testinfra.YamlLines;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The Java validation (LoadedResources: YAML with locations, SchemaCheck, Validator) against every
 * fixture: each mistake is reported as an ERROR with its field path, message and the line it is
 * written on; every ERROR is one the fixture expects; accepted files have none.
 */
class ValidatorFixturesTest {

  @TestFactory
  Stream<DynamicTest> invalidFixturesReportTheExpectedErrorsAtTheirLines() {
    List<Fixture> fixtures = Fixture.invalid();
    assertThat(fixtures).hasSizeGreaterThan(50);
    return fixtures.stream().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
      assertThat(f.expects()).as("an invalid fixture says what is wrong (# expect:)").isNotEmpty();
      List<Problem> errors = errors(LoadedResources.load(List.of(f.file())));
      YamlLines yaml = new YamlLines(f.text());
      List<Problem> unexpected = new ArrayList<>(errors);
      for (Fixture.Expect expect : f.expects()) {
        List<Problem> matching = errors.stream()
            .filter(p -> p.path().equals(expect.path()) && p.message().contains(expect.message())).toList();
        assertThat(matching).as("an ERROR %s among %s", expect, errors).isNotEmpty();
        for (Problem p : matching) {
          unexpected.remove(p);
          assertThat(p.location()).as("location of %s", p).isNotNull();
          assertThat(p.location().file()).isEqualTo(f.file().toString());
          int document = yaml.documentAt(p.location().line());
          assertThat(document).as("line %d of %s is inside a document", p.location().line(), p).isNotNegative();
          assertThat(p.location().line())
              .as("line of %s: where %s (or its nearest present parent) is written", p, p.path())
              .isEqualTo(yaml.lineOf(document, p.path()));
        }
      }
      assertThat(unexpected).as("ERRORs the fixture does not expect").isEmpty();
      if (f.errors() != null) {
        assertThat(errors).as("number of ERRORs (# errors:)").hasSize(f.errors());
      }
    }));
  }

  @TestFactory
  Stream<DynamicTest> acceptedFilesHaveNoErrors() {
    List<Fixture> accepted = new ArrayList<>(Fixture.examples());
    accepted.addAll(Fixture.valid());
    return accepted.stream().map(f -> DynamicTest.dynamicTest(f.toString(), () -> {
      LoadedResources r = LoadedResources.load(List.of(f.file()));
      assertThat(r.problems()).as("problems").isEmpty();
      assertThat(r.comparisons().size() + r.clusters().size()).as("every document is loaded")
          .isEqualTo(f.documents().size());
    }));
  }

  @Test
  void examplesValidateTogether() {
    LoadedResources r = LoadedResources.load(List.of(
        Path.of("examples/gpu-cluster-slurm.yaml"), Path.of("examples/router-comparison.yaml")));
    assertThat(r.problems()).isEmpty();
    RouterComparison rc = r.comparisons().get(0);
    assertThat(rc.getSpec().arms).extracting(a -> a.name).containsExactly("sgl-router", "dynamo-kv", "dynamo-kv-policy");
    assertThat(r.clusterFor(rc)).hasValueSatisfying(c -> assertThat(c.getSpec().mode).isEqualTo("slurm"));
  }

  @Test
  void allProblemsOfAllFilesAtOnce() {
    Path a = Fixture.ROOT.resolve("invalid/three-mistakes.yaml");
    Path b = Fixture.ROOT.resolve("invalid/cluster-workdir-relative.yaml");
    List<Problem> errors = errors(LoadedResources.load(List.of(a, b)));
    assertThat(errors).extracting(p -> p.location().file() + " " + p.path()).containsExactly(
        b + " spec.workDir",
        a + " spec.model.path",
        a + " spec.dynamo.hash",
        a + " spec.arms[1].name");
  }

  @Test
  void aRuleOnTheSharedSpecIsReportedOnceNotOncePerArm() {
    // Two Dynamo arms and no spec.dynamo: one problem, not two identical ones.
    List<Problem> errors = errors(LoadedResources.load(
        List.of(Fixture.ROOT.resolve("invalid/dynamo-arm-without-spec-dynamo.yaml"))));
    assertThat(errors).extracting(Problem::path).containsExactly("spec.dynamo");
  }

  @Test
  void theFitRulesUseTheClusterOfTheSameFileOrTheDefaultEightGpus() {
    String comparison = Fixture.read(Fixture.ROOT.resolve("valid/cluster-and-comparison.yaml")).text();
    String rc = comparison.substring(comparison.indexOf("---\n") + 4);
    // 1 worker x 4 GPUs fits the 4-GPU nodes of the cluster in the file...
    assertThat(errors(LoadedResources.parse("both.yaml", comparison))).isEmpty();
    // ...and 8 default GPUs without it; 3 such workers fit neither.
    assertThat(errors(LoadedResources.parse("rc.yaml", rc))).isEmpty();
    String three = rc.replace("aggWorkers: 1", "aggWorkers: 3");
    assertThat(errors(LoadedResources.parse("rc.yaml", three))).extracting(Problem::describe)
        .containsExactly("spec.resources: aggWorkers x gpusPerWorker = 12 GPUs, more than aggNodes x gpusPerNode = 8");
  }

  @Test
  void notYamlIsReportedAtTheLineWhereParsingStopped() {
    String text = "apiVersion: srt.dev/v1alpha1\nkind: GpuCluster\nspec:\n  mode: [direct\n  workDir: /x\n";
    List<Problem> errors = errors(LoadedResources.parse("broken.yaml", text));
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0).toString()).startsWith("broken.yaml:5: not valid YAML: ");
  }

  private static List<Problem> errors(LoadedResources r) {
    return r.problems().stream().filter(Problem::isError).toList();
  }
}
