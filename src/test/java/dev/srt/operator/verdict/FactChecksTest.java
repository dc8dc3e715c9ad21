package dev.srt.operator.verdict;

import static dev.srt.operator.verdict.FactComparisonTest.A;
import static dev.srt.operator.verdict.FactComparisonTest.TOKENIZER;
import static dev.srt.operator.verdict.FactComparisonTest.facts;
import static dev.srt.operator.verdict.FactComparisonTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.RunFacts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The facts check fails closed: a measured run without facts, or a routing fact that differs
 * between the runs of one arm, makes the verdicts over those runs not-comparable, naming the runs;
 * with requireFacts: false they stand and the report warns.
 */
class FactChecksTest {
  static final String ROUTER = "router binary sha256";

  private static ArmRun run(int repetition, String runId, RunFacts facts) {
    ArmRun r = FactComparisonTest.run(repetition, facts);
    r.runId = runId;
    return r;
  }

  /** A baseline and two arms of two runs each, all with the same facts, and {@code router} the routers' hash. */
  private static Map<String, List<ArmRun>> threeArms() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    for (String arm : List.of("base", "one", "two")) {
      runs.put(arm, List.of(run(1, arm + "-r1", facts(TOKENIZER, A, ROUTER, arm)), run(2, arm + "-r2", facts(TOKENIZER, A, ROUTER, arm))));
    }
    return runs;
  }

  private static List<String> verdicts(ComparisonReport r, String arm) {
    return r.verdicts.stream().filter(v -> v.arm.equals(arm)).map(v -> v.verdict).distinct().toList();
  }

  @Test
  void agreeingFactsRefuseNothing() {
    ComparisonReport r = ComparisonReport.of("cmp", threeArms(), "base", 0.01);

    assertThat(r.verdicts).isNotEmpty().noneSatisfy(v -> assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE));
    assertThat(r.factChecks).allSatisfy(c -> assertThat(c.reason).isNull());
    assertThat(FactChecks.message(r.factChecks)).isNull();
  }

  @Test
  void aRunWithoutFactsRefusesItsArmOnlyNamingTheRunAndWhy() {
    Map<String, List<ArmRun>> runs = threeArms();
    runs.get("one").get(1).facts = RunFacts.none("facts.json is malformed: not JSON");

    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01);

    assertThat(verdicts(r, "one")).containsExactly(Verdicts.NOT_COMPARABLE);
    assertThat(r.verdicts).filteredOn(v -> v.arm.equals("one"))
        .allSatisfy(v -> assertThat(v.reason).isEqualTo("run one-r2 of one has no facts: facts.json is malformed: not JSON"));
    assertThat(verdicts(r, "two")).doesNotContain(Verdicts.NOT_COMPARABLE);
    assertThat(r.factChecks.get(0).withoutFacts).containsExactly("run one-r2 of one has no facts: facts.json is malformed: not JSON");
    assertThat(FactChecks.message(r.factChecks)).isEqualTo("run one-r2 of one has no facts: facts.json is malformed: not JSON");
    assertThat(FactChecks.lines(r.factChecks)).containsExactly(
        "one against base: verdicts not comparable: run one-r2 of one has no facts: facts.json is malformed: not JSON");
  }

  /** A run that was never read (a status of an earlier version) has no facts either. */
  @Test
  void aBaselineRunWithoutFactsRefusesEveryVerdictAgainstTheBaseline() {
    Map<String, List<ArmRun>> runs = threeArms();
    runs.get("base").get(0).facts = null;

    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01);

    assertThat(r.verdicts).isNotEmpty().allSatisfy(v -> {
      assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
      assertThat(v.reason).isEqualTo("run base-r1 of base has no facts: none were read with its results");
    });
    // said once in the status, not once per arm
    assertThat(FactChecks.message(r.factChecks)).isEqualTo("run base-r1 of base has no facts: none were read with its results");
  }

  /** Only the runs whose numbers are averaged need facts: a succeeded run without numbers adds nothing to vouch for. */
  @Test
  void aSucceededRunWithoutNumbersNeedsNoFacts() {
    Map<String, List<ArmRun>> runs = threeArms();
    ArmRun noNumbers = run(3, "one-r3", null);
    noNumbers.results = null;
    runs.put("one", List.of(runs.get("one").get(0), runs.get("one").get(1), noNumbers));

    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01);

    assertThat(r.factChecks.get(0).withoutFacts).isEmpty();
    assertThat(verdicts(r, "one")).doesNotContain(Verdicts.NOT_COMPARABLE);
  }

  /** Routing facts may differ between arms, never between the runs of one: they would be two routers averaged as one. */
  @Test
  void aRoutingFactThatDiffersWithinAnArmRefusesThatArm() {
    Map<String, List<ArmRun>> runs = threeArms();
    runs.get("two").get(1).facts = facts(TOKENIZER, A, ROUTER, "another build");

    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01);

    assertThat(verdicts(r, "one")).doesNotContain(Verdicts.NOT_COMPARABLE);
    assertThat(verdicts(r, "two")).containsExactly(Verdicts.NOT_COMPARABLE);
    String reason = "routing facts differ between the runs of one arm (two routers averaged as one): "
        + "router binary sha256 two (run 1 of two) vs another build (run 2 of two)";
    assertThat(r.verdicts).filteredOn(v -> v.arm.equals("two")).allSatisfy(v -> assertThat(v.reason).isEqualTo(reason));
    assertThat(r.factChecks.get(1).routingWithinArm).containsExactly("router binary sha256 two (run 1 of two) vs another build (run 2 of two)");
  }

  /** The status keeps digests only: a routing digest that differs within an arm refuses it just the same. */
  @Test
  void aRoutingDigestThatDiffersWithinAnArmRefusesThatArm() {
    Map<String, List<ArmRun>> runs = threeArms();
    runs.get("two").get(1).facts = facts(TOKENIZER, A, ROUTER, "another build");
    runs.values().forEach(list -> list.forEach(x -> {
      x.facts.routingDigest = FactKind.ROUTING.digest(x.facts.facts);
      x.facts = x.facts.compact();
    }));

    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01);

    assertThat(verdicts(r, "one")).doesNotContain(Verdicts.NOT_COMPARABLE);
    assertThat(verdicts(r, "two")).containsExactly(Verdicts.NOT_COMPARABLE);
    assertThat(r.factChecks.get(1).routingWithinArm).singleElement().asString().startsWith(FactComparison.ROUTING_DIGEST + " ");
  }

  @Test
  void withRequireFactsFalseTheVerdictsStandAndEachArmIsWarnedOf() {
    Map<String, List<ArmRun>> runs = threeArms();
    runs.get("base").get(0).facts = RunFacts.none("facts.json is a FIFO: skipped");
    runs.get("two").get(1).facts = facts(TOKENIZER, A, ROUTER, "another build");

    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01, false);

    assertThat(r.verdicts).isNotEmpty().noneSatisfy(v -> assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE));
    assertThat(r.warnings).containsExactly(
        "one against base (requireFacts: false): run base-r1 of base has no facts: facts.json is a FIFO: skipped",
        "two against base (requireFacts: false): run base-r1 of base has no facts: facts.json is a FIFO: skipped · routing facts differ "
            + "between the runs of one arm (two routers averaged as one): router binary sha256 two (run 1 of two) vs another build (run 2 of two)");
    assertThat(FactChecks.lines(r.factChecks)).isEqualTo(r.warnings);
    assertThat(r.factChecks).noneSatisfy(c -> assertThat(c.refused).isTrue());
  }
}
