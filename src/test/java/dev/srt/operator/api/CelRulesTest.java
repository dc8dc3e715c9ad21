package dev.srt.operator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertAll;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.testinfra.Fixture;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * The x-kubernetes-validations of the generated CRDs, checked the way the API server uses them. The
 * mock API server of the other tests ignores these rules, so this is the proof that they compile
 * and accept and reject what the Java validator does.
 *
 * <p>{@code self} is typed from the schema rather than declared dyn: the API server does the same,
 * which is what makes a rule that reads a field CEL cannot see (e.g. an untyped {@code args} map)
 * fail to compile at CRD install time.
 */
class CelRulesTest {
  private static List<CrdSchema> crds;
  private static Map<String, CelRules> byKind;

  @BeforeAll
  static void load() {
    crds = CrdSchema.all();
    byKind = new LinkedHashMap<>();
    crds.forEach(c -> byKind.put(c.kind, new CelRules(c)));
  }

  @Test
  void bothCrdsCarryRules() {
    assertThat(byKind).containsOnlyKeys("RouterComparison", "GpuCluster");
    byKind.forEach((kind, rules) -> assertThat(rules.rules()).as(kind).hasSizeGreaterThan(5));
  }

  @Test
  void everyRuleCompiles() {
    Map<String, String> errors = new LinkedHashMap<>();
    byKind.values().forEach(r -> r.compileErrors().forEach((rule, error) -> errors.put(rule.id(), error)));
    assertThat(errors).as("rules the API server would refuse at CRD install time").isEmpty();
  }

  @Test
  void everyRuleHasAMessageAndADeclaredFieldPath() {
    List<Executable> checks = new ArrayList<>();
    for (CelRules rules : byKind.values()) {
      for (CrdSchema.Rule rule : rules.rules()) {
        checks.add(() -> assertThat(rule.message()).as(rule.id()).isNotBlank());
        if (rule.fieldPath() != null) {
          checks.add(() -> assertThat(CrdSchema.fieldPathDeclared(rule.schema(), rule.fieldPath()))
              .as("fieldPath %s of %s must name a declared property", rule.fieldPath(), rule.id()).isTrue());
        }
      }
    }
    assertAll(checks);
  }

  @Test
  void celSeesTypedFieldsOnlyAsTheApiServerDoes() {
    CelRules rc = byKind.get("RouterComparison");
    // args is x-kubernetes-preserve-unknown-fields without a type: invisible to CEL.
    assertThat(rc.compileAt("spec.arms[*].frontend", "has(self.args)")).hasValueSatisfying(
        e -> assertThat(e).contains("undefined field 'args'"));
    assertThat(rc.compileAt("spec.backend", "has(self.args)")).isPresent();
    assertThat(rc.compileAt("spec.arms[*].frontend", "self.env.all(k, k != '')")).isEmpty();
    // Field types are checked, as they are on the server.
    assertThat(rc.compileAt("spec.resources", "self.aggWorkers == 'two'")).isPresent();
    assertThat(rc.compileAt("spec.resources", "self.aggWorkers > 1")).isEmpty();
    // Reserved words are escaped (package -> __package__), and the root sees metadata.name.
    assertThat(rc.compileAt("spec.arms[*].dynamo.policyCatalog", "self.__package__ != ''")).isEmpty();
    assertThat(rc.compileAt("", "self.metadata.name != ''")).isEmpty();
    // A rule must be a boolean.
    assertThat(rc.compileAt("spec.model", "self.path")).isPresent();
  }

  @TestFactory
  Stream<DynamicTest> acceptedDocumentsPassEveryRule() {
    List<Fixture> accepted = new ArrayList<>(Fixture.examples());
    accepted.addAll(Fixture.valid());
    assertThat(accepted).extracting(Fixture::name)
        .contains("router-comparison.yaml", "gpu-cluster-slurm.yaml", "gpu-cluster-direct.yaml");
    return accepted.stream().map(f -> DynamicTest.dynamicTest(f.toString(), () -> {
      assertThat(f.expects()).as("accepted fixtures carry no expectations").isEmpty();
      for (JsonNode doc : f.documents()) {
        CelRules rules = rulesFor(doc);
        CelRules.Evaluation e = rules.evaluate(doc);
        assertThat(e.blocked()).isFalse();
        assertThat(e.failures()).extracting(CelRules.Failure::describe).isEmpty();
        assertThat(CrdSchema.forKind(crds, doc.path("kind").asText()).orElseThrow().structuralProblems(doc)).isEmpty();
      }
    }));
  }

  @TestFactory
  Stream<DynamicTest> invalidFixturesFailExactlyTheDeclaredRules() {
    return Fixture.invalid().stream().map(f -> DynamicTest.dynamicTest(f.name(), () -> {
      List<String> cel = new ArrayList<>();
      List<String> schema = new ArrayList<>();
      for (JsonNode doc : f.documents()) {
        if (!byKind.containsKey(doc.path("kind").asText())) {
          continue;
        }
        rulesFor(doc).evaluate(doc).failures().forEach(x -> cel.add(x.describe()));
        schema.addAll(CrdSchema.forKind(crds, doc.path("kind").asText()).orElseThrow().structuralProblems(doc));
      }
      assertThat(cel).as("failing CEL rules (# cel:)").containsExactlyInAnyOrderElementsOf(f.cel());
      assertThat(schema).as("structural schema violations (# schema:)").containsExactlyInAnyOrderElementsOf(f.schema());
      if (f.javaOnly() != null) {
        assertThat(f.cel()).as("a java-only fixture declares no CEL failures").isEmpty();
        assertThat(f.schema()).as("a java-only fixture declares no schema violations").isEmpty();
      } else {
        assertThat(f.cel().size() + f.schema().size())
            .as("the CRD rejects it, or the fixture says why only Java can (# java-only:)").isPositive();
      }
    }));
  }

  @Test
  void everyRuleIsRejectedByAFixtureAndPassedByAnAcceptedDocument() {
    Set<String> rejected = new LinkedHashSet<>();
    for (Fixture f : Fixture.invalid()) {
      for (JsonNode doc : f.documents()) {
        if (byKind.containsKey(doc.path("kind").asText())) {
          rulesFor(doc).evaluate(doc).failures().stream()
              .filter(x -> f.cel().contains(x.describe()))
              .forEach(x -> rejected.add(x.rule().id()));
        }
      }
    }
    Set<String> passed = new LinkedHashSet<>();
    List<Fixture> accepted = new ArrayList<>(Fixture.examples());
    accepted.addAll(Fixture.valid());
    for (Fixture f : accepted) {
      for (JsonNode doc : f.documents()) {
        CelRules.Evaluation e = rulesFor(doc).evaluate(doc);
        e.evaluated().forEach(r -> passed.add(r.id()));
        e.failures().forEach(x -> passed.remove(x.rule().id()));
      }
    }
    List<String> all = byKind.values().stream().flatMap(r -> r.rules().stream()).map(CrdSchema.Rule::id).toList();
    assertThat(all).doesNotHaveDuplicates();
    assertAll(
        () -> assertThat(all).as("rules without an invalid fixture that fails exactly them (# cel:)")
            .filteredOn(id -> !rejected.contains(id)).isEmpty(),
        () -> assertThat(all).as("rules no accepted document exercises (the node is absent everywhere)")
            .filteredOn(id -> !passed.contains(id)).isEmpty());
  }

  private static CelRules rulesFor(JsonNode doc) {
    CelRules rules = byKind.get(doc.path("kind").asText());
    assertThat(rules).as("kind of a document: %s", doc.path("kind")).isNotNull();
    return rules;
  }
}
