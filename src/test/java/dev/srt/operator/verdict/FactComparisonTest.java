package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Facts compared between the runs a verdict compares: held-constant facts that differ refuse it,
 * routing facts may differ, recorded facts are never compared, unknown facts are listed and never
 * counted as equal or as different.
 */
class FactComparisonTest {
  static final String TOKENIZER = "model tokenizer.json sha256";
  static final String A = "3f2a81c0".repeat(8);
  static final String B = "9c41d2e7".repeat(8);

  /** The facts of one run: name, value pairs; a value starting with "?" is unknown for that reason. */
  static RunFacts facts(String... nameValue) {
    RunFacts f = new RunFacts();
    f.facts = new ArrayList<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      String v = nameValue[i + 1];
      f.facts.add(new RunFact(nameValue[i], FactKind.of(nameValue[i]).wire(), v.startsWith("?") ? null : v,
          v.startsWith("?") ? v.substring(1) : null));
    }
    f.heldConstantDigest = FactKind.HELD_CONSTANT.digest(f.facts);
    return f;
  }

  static ArmRun run(int repetition, RunFacts facts) {
    // every default verdict metric has a value, varying from run to run (runs without spread are not comparable):
    // only facts can refuse a verdict here
    ArmRun r = VerdictsTest.run(100 + repetition, 400 + repetition, 0.5 + 0.01 * repetition, 0);
    r.repetition = repetition;
    r.facts = facts;
    r.results.p99ItlMs = 20.0 + repetition;
    return r;
  }

  static Map<String, List<ArmRun>> arms(List<ArmRun> base, List<ArmRun> other) {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("cache-aware", base);
    runs.put("round-robin", other);
    return runs;
  }

  /** Both directions of every kind: the same pair of values, swapped between the arms. */
  @ParameterizedTest
  @ValueSource(strings = {TOKENIZER, "model config.json sha256", "node 0 GPU driver", "node 1 CUDA version", "node 0 kernel",
      "node 0 package torch", "engine worker-0 server_args.mem_fraction_static", "workload dataset sha256", "workload seed",
      "model served name", "a fact a newer script writes"})
  void aHeldConstantFactThatDiffersIsNamedWithBothValuesAndTheirRunsEitherWay(String name) {
    for (boolean swapped : List.of(false, true)) {
      String base = swapped ? B : A;
      String other = swapped ? A : B;
      FactComparison c = FactComparison.of(arms(List.of(run(1, facts(name, base)), run(2, facts(name, base))),
          List.of(run(1, facts(name, other)), run(2, facts(name, other)))));

      assertThat(FactKind.of(name)).isEqualTo(FactKind.HELD_CONSTANT);
      assertThat(c.heldConstantEqual()).isFalse();
      assertThat(c.heldConstant()).singleElement().satisfies(d -> assertThat(d.text()).isEqualTo(
          name + " " + base.substring(0, 8) + "… (runs 1-2 of cache-aware) vs " + other.substring(0, 8) + "… (runs 1-2 of round-robin)"));
      assertThat(c.reason(3)).isEqualTo("held-constant facts differ: " + c.heldConstant().get(0).text());
      assertThat(c.equal()).isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"router binary sha256", "router version", "router wheel ai_dynamo_runtime-1.2.0-cp310-abi3-linux_x86_64.whl sha256",
      "router policy catalog rev", "router package ai-dynamo", "engine worker-0 server_args.grpc_port",
      "engine worker-1 server_args.incremental_streaming_output"})
  void routingFactsMayDifferEitherWay(String name) {
    for (boolean swapped : List.of(false, true)) {
      FactComparison c = FactComparison.of(arms(List.of(run(1, facts(name, swapped ? B : A, TOKENIZER, A))),
          List.of(run(1, facts(name, swapped ? A : B, TOKENIZER, A)))));

      assertThat(FactKind.of(name)).isEqualTo(FactKind.ROUTING);
      assertThat(c.heldConstantEqual()).isTrue();
      assertThat(c.reason(3)).isNull();
      assertThat(c.routing()).singleElement().satisfies(d -> assertThat(d.name()).isEqualTo(name));
      assertThat(c.equal()).isEqualTo(1);
    }
  }

  /** The KV-cache size SGLang fits in the free GPU memory differs a little between runs on the same GPUs: a stated tolerance. */
  @Test
  void theKvCacheSizeIsTheSameWithinItsToleranceAndDiffersBeyondIt() {
    String name = "engine worker-0 server_args.max_total_num_tokens";
    FactComparison close = FactComparison.of(arms(List.of(run(1, facts(name, "1000000")), run(2, facts(name, "998000"))),
        List.of(run(1, facts(name, "980000")))));
    assertThat(close.heldConstantEqual()).isTrue();
    assertThat(close.equal()).isEqualTo(1);

    FactComparison far = FactComparison.of(arms(List.of(run(1, facts(name, "1000000"))), List.of(run(1, facts(name, "979000")))));
    assertThat(far.heldConstantEqual()).isFalse();
    assertThat(far.heldConstant()).singleElement().satisfies(d -> assertThat(d.name()).isEqualTo(name));

    // only that fact has a tolerance, and only between numbers
    String other = "engine worker-0 server_args.max_running_requests";
    assertThat(FactComparison.of(arms(List.of(run(1, facts(other, "1000"))), List.of(run(1, facts(other, "999"))))).heldConstantEqual()).isFalse();
    assertThat(FactComparison.of(arms(List.of(run(1, facts(name, "1000"))), List.of(run(1, facts(name, "1000.5"))))).heldConstantEqual()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"node 0 host", "engine worker-0 node", "engine worker-0 server_args.random_seed",
      "engine worker-0 server_args.dist_init_addr"})
  void recordedFactsAreNeverCompared(String name) {
    FactComparison c = FactComparison.of(arms(List.of(run(1, facts(name, "gpu-01"))), List.of(run(1, facts(name, "gpu-07")))));

    assertThat(FactKind.of(name)).isEqualTo(FactKind.RECORDED);
    assertThat(c.heldConstant()).isEmpty();
    assertThat(c.routing()).isEmpty();
    assertThat(c.equal()).isZero();
  }

  @Test
  void theRepetitionsOfOneArmAreComparedToo() {
    FactComparison c = FactComparison.of(arms(List.of(run(1, facts(TOKENIZER, A)), run(2, facts(TOKENIZER, A))),
        List.of(run(1, facts(TOKENIZER, A)), run(2, facts(TOKENIZER, B)), run(3, facts(TOKENIZER, A)))));

    assertThat(c.heldConstant()).singleElement().satisfies(d -> assertThat(d.text()).isEqualTo(
        TOKENIZER + " 3f2a81c0… (runs 1-2 of cache-aware, runs 1, 3 of round-robin) vs 9c41d2e7… (run 2 of round-robin)"));
  }

  @Test
  void anUnknownFactIsListedAndCountsAsNeitherEqualNorDifferent() {
    String driver = "node 0 GPU driver";
    FactComparison c = FactComparison.of(arms(List.of(run(1, facts(driver, "570.86.15", TOKENIZER, A))),
        List.of(run(1, facts(driver, "?nvidia-smi is not on the PATH on gpu-02", TOKENIZER, A)))));

    assertThat(c.heldConstantEqual()).as("unknown is not different").isTrue();
    assertThat(c.equal()).as("unknown is not equal either: only the tokenizer is").isEqualTo(1);
    assertThat(c.unknown()).singleElement().satisfies(u -> assertThat(u.text())
        .isEqualTo("node 0 GPU driver unknown in run 1 of round-robin: nvidia-smi is not on the PATH on gpu-02"));
    // known values that differ still differ, whatever other runs could not find out
    FactComparison mixed = FactComparison.of(arms(List.of(run(1, facts(driver, "570.86.15")), run(2, facts(driver, "?timed out"))),
        List.of(run(1, facts(driver, "535.104.05")))));
    assertThat(mixed.heldConstant()).singleElement().satisfies(d -> assertThat(d.text())
        .isEqualTo("node 0 GPU driver 570.86.15 (run 1 of cache-aware) vs 535.104.05 (run 1 of round-robin)"));
    assertThat(mixed.unknown()).singleElement().satisfies(u -> assertThat(u.runs()).containsExactly(
        new FactComparison.RunLabel("cache-aware", 2)));
  }

  @Test
  void aFactMissingFromARunIsUnknownWhenItsSourceDidNotAnswerElseNotReported() {
    String tp = "engine worker-0 server_args.tp_size";
    FactComparison covered = FactComparison.of(arms(List.of(run(1, facts(tp, "4"))),
        List.of(run(1, facts("engine worker-0 server_args", "?http://127.0.0.1:6100/server_info: timed out")))));
    assertThat(covered.heldConstant()).isEmpty();
    assertThat(covered.unknown()).extracting(FactComparison.Unknown::text)
        .containsExactly("engine worker-0 server_args unknown in run 1 of round-robin: http://127.0.0.1:6100/server_info: timed out");
    assertThat(covered.equal()).as("an argument one run could not ask is not equal").isZero();

    FactComparison notReported = FactComparison.of(arms(List.of(run(1, facts(tp, "4", TOKENIZER, A))), List.of(run(1, facts(TOKENIZER, A)))));
    assertThat(notReported.heldConstant()).singleElement().satisfies(d -> assertThat(d.text())
        .isEqualTo(tp + " 4 (run 1 of cache-aware) vs (not reported) (run 1 of round-robin)"));
  }

  /** Compared fact by fact, a run without facts is unknown, never equal; {@link FactChecksTest}: it refuses the verdicts. */
  @Test
  void runsWithoutFactsAreListedAsUnknownNeverAsEqual() {
    ArmRun old = run(1, null);
    ArmRun unreadable = run(2, RunFacts.none("facts.json: facts[3].name is not unique"));
    FactComparison c = FactComparison.of(arms(List.of(old, unreadable), List.of(run(1, facts(TOKENIZER, A)))));

    assertThat(c.heldConstantEqual()).isTrue();
    assertThat(c.unknown()).extracting(FactComparison.Unknown::text).containsExactly(
        "all facts unknown in run 1 of cache-aware: the run has no facts",
        "all facts unknown in run 2 of cache-aware: facts.json: facts[3].name is not unique");
  }

  @Test
  void runsKnownOnlyByTheirDigestsAreComparedByDigest() {
    RunFacts a = facts(TOKENIZER, A).compact();
    RunFacts sameAsA = facts(TOKENIZER, A);
    RunFacts b = facts(TOKENIZER, B).compact();

    assertThat(FactComparison.of(arms(List.of(run(1, a)), List.of(run(1, sameAsA)))).heldConstantEqual()).isTrue();
    FactComparison c = FactComparison.of(arms(List.of(run(1, a)), List.of(run(1, b))));
    assertThat(c.heldConstant()).singleElement().satisfies(d -> assertThat(d.name()).isEqualTo(FactComparison.DIGEST));
  }

  @Test
  void aVerdictOverRunsWhoseHeldConstantFactsDifferIsNotComparableNamingEachFact() {
    Map<String, List<ArmRun>> runs = arms(
        List.of(run(1, facts(TOKENIZER, A, "node 0 GPU driver", "570.86.15")), run(2, facts(TOKENIZER, A, "node 0 GPU driver", "570.86.15"))),
        List.of(run(1, facts(TOKENIZER, B, "node 0 GPU driver", "570.86.15")), run(2, facts(TOKENIZER, B, "node 0 GPU driver", "570.86.15"))));

    ComparisonReport refused = ComparisonReport.of("cmp", runs, "cache-aware", 0.01);
    assertThat(refused.verdicts).isNotEmpty().allSatisfy(v -> {
      assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
      assertThat(v.reason).isEqualTo("held-constant facts differ: model tokenizer.json sha256 3f2a81c0… (runs 1-2 of cache-aware) "
          + "vs 9c41d2e7… (runs 1-2 of round-robin)");
      assertThat(v.ci95Pct).isNull();
    });
    assertThat(refused.factChecks).singleElement().satisfies(check -> {
      assertThat(check.refused).isTrue();
      assertThat(check.equal).isEqualTo(1);
      assertThat(check.differing).hasSize(1);
    });
    assertThat(refused.warnings).isEmpty();
    assertThat(FactChecks.message(refused.factChecks)).isEqualTo("held-constant facts differ between the runs of round-robin against "
        + "cache-aware: model tokenizer.json sha256 3f2a81c0… (runs 1-2 of cache-aware) vs 9c41d2e7… (runs 1-2 of round-robin)");

    // requireFacts: false keeps the verdicts and warns instead
    ComparisonReport warned = ComparisonReport.of("cmp", runs, "cache-aware", 0.01, false);
    assertThat(warned.verdicts).allSatisfy(v -> assertThat(v.verdict).isNotEqualTo(Verdicts.NOT_COMPARABLE));
    assertThat(warned.warnings).singleElement().asString().startsWith("round-robin against cache-aware (requireFacts: false): "
        + "held-constant facts differ: model tokenizer.json");
    assertThat(warned.factChecks.get(0).refused).isFalse();
  }

  @Test
  void equalFactsLeaveTheVerdictsAsTheNumbersMakeThem() {
    Map<String, List<ArmRun>> runs = arms(List.of(run(1, facts(TOKENIZER, A, "router version", "1")), run(2, facts(TOKENIZER, A, "router version", "1"))),
        List.of(run(1, facts(TOKENIZER, A, "router version", "2")), run(2, facts(TOKENIZER, A, "router version", "2"))));

    ComparisonReport r = ComparisonReport.of("cmp", runs, "cache-aware", 0.01);

    assertThat(r.verdicts).extracting(v -> v.verdict).doesNotContain(Verdicts.NOT_COMPARABLE);
    assertThat(r.factChecks.get(0).differing).isEmpty();
    assertThat(r.factChecks.get(0).routing).containsExactly("router version 1 (runs 1-2 of cache-aware) vs 2 (runs 1-2 of round-robin)");
    assertThat(FactChecks.message(r.factChecks)).isNull();
    // failed runs do not take part: they have no facts to compare
    ArmRun failed = run(3, facts(TOKENIZER, B));
    failed.phase = "Failed";
    runs.put("round-robin", List.of(runs.get("round-robin").get(0), runs.get("round-robin").get(1), failed));
    assertThat(ComparisonReport.of("cmp", runs, "cache-aware", 0.01).factChecks.get(0).differing).isEmpty();
  }

  @Test
  void theReasonSpellsOutThreeFactsAndCountsTheRest() {
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (String f : List.of("config.json", "tokenizer.json", "tokenizer_config.json", "generation_config.json", "model.safetensors.index.json")) {
      a.addAll(List.of("model " + f + " sha256", A));
      b.addAll(List.of("model " + f + " sha256", B));
    }
    FactComparison c = FactComparison.of(arms(List.of(run(1, facts(a.toArray(String[]::new)))), List.of(run(1, facts(b.toArray(String[]::new))))));

    assertThat(c.reason(3)).endsWith("; and 2 more").contains("model config.json sha256", "model generation_config.json sha256");
  }

  @Test
  void longValuesStayDistinctWhenShortened() {
    String common = "x".repeat(100);
    assertThat(FactComparison.shown(common + "a")).isNotEqualTo(FactComparison.shown(common + "b")).hasSizeLessThan(70);
    assertThat(FactComparison.shown("570.86.15")).isEqualTo("570.86.15");
  }
}
