package dev.srt.operator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, finding 4: the CEL rules stay within the API server's budget. Every list, map and string
 * that a rule iterates, searches or reads character by character has a declared bound, and the
 * estimated worst case of each rule (times the number of values it runs on) is far below what the
 * API server allows: 10,000,000 per rule and 100,000,000 per CRD at install time, 1,000,000 per
 * call at run time. The budget asserted here is the run-time one, for every rule and the whole CRD.
 */
class CelCostTest {
  /** The API server's run-time limit of one rule call (apiserver's PerCallLimit). */
  static final long PER_CALL_LIMIT = 1_000_000;
  /** The API server's run-time budget of all rules of one object (RuntimeCELCostBudget). */
  static final long PER_OBJECT_BUDGET = 10_000_000;

  private static Map<String, CelRules> byKind;

  @BeforeAll
  static void load() {
    byKind = new LinkedHashMap<>();
    CrdSchema.all().forEach(c -> byKind.put(c.kind, new CelRules(c)));
  }

  @Test
  void everyRuleReadsOnlyBoundedInputsAndStaysWithinTheBudget() {
    List<String> unbounded = new ArrayList<>();
    List<String> tooCostly = new ArrayList<>();
    for (CelRules rules : byKind.values()) {
      long total = 0;
      assertThat(rules.asts()).as("every rule is estimated").hasSameSizeAs(rules.rules());
      for (var e : rules.asts().entrySet()) {
        CrdSchema.Rule rule = e.getKey();
        CelCost.Estimate estimate = CelCost.of(e.getValue(), rule.schema(), rule.schemaPath().isEmpty(), rule.schemaPath());
        estimate.unbounded().forEach(u -> unbounded.add(rule.id() + ": " + u));
        long runs = cardinality(rule.crd(), rule.schemaPath(), unbounded, rule.id());
        long cost = estimate.cost() * runs;
        if (cost > PER_CALL_LIMIT) {
          tooCostly.add(rule.id() + ": " + estimate.cost() + " x " + runs + " values");
        }
        total += cost;
      }
      assertThat(total).as("estimated cost of all %s rules on one object", rules.rules().get(0).crd().kind)
          .isLessThanOrEqualTo(PER_OBJECT_BUDGET);
    }
    assertThat(unbounded).as("rules reading an input without maxLength/maxItems/maxProperties").isEmpty();
    assertThat(tooCostly).as("rules over the per-call limit of %d", PER_CALL_LIMIT).isEmpty();
  }

  @Test
  void theEstimateGrowsWithTheDeclaredBoundsAndFlagsUnboundedInputs() {
    CelRules gc = byKind.get("GpuCluster");
    CrdSchema crd = CrdSchema.forKind(CrdSchema.all(), "GpuCluster").orElseThrow();
    JsonNode spec = crd.root.at("/properties/spec");
    // 64 entries of 4096 characters, each read up to 410 times: more than 64 x 410.
    CelCost.Estimate path = CelCost.of(gc.astAt("spec", "self.path.all(p, p.startsWith('/'))"), spec, false, "spec");
    assertThat(path.unbounded()).isEmpty();
    assertThat(path.cost()).isGreaterThan(64L * 410).isLessThan(PER_CALL_LIMIT);
    // Status lists are written by the operator and carry no bounds: a rule over them is flagged.
    JsonNode status = crd.root.at("/properties/status");
    CelCost.Estimate partitions = CelCost.of(gc.astAt("status", "self.partitions.all(p, p.startsWith('gpu'))"), status, false, "status");
    assertThat(partitions.unbounded()).hasSize(2).allMatch(u -> u.contains("status.partitions"));
    // size() of an unbounded map key costs nothing per character: the key-length rules are fine.
    CelCost.Estimate keys = CelCost.of(gc.astAt("spec.env", Limits.KEYS_BOUNDED), spec.at("/properties/env"), false, "spec.env");
    assertThat(keys.unbounded()).isEmpty();
    assertThat(CelCost.of(gc.astAt("spec.env", "self.all(k, k.startsWith('A'))"), spec.at("/properties/env"), false, "spec.env")
        .unbounded()).singleElement().asString().contains("spec.env keys");
  }

  /**
   * How many values of one object a rule at {@code path} runs on: the product of the bounds of the
   * lists and maps around it ({@code [*]} in the path). An unbounded one is recorded.
   */
  private static long cardinality(CrdSchema crd, String path, List<String> unbounded, String id) {
    long runs = 1;
    JsonNode node = crd.root;
    if (path.isEmpty()) {
      return runs;
    }
    for (String segment : path.split("\\.")) {
      String name = segment.replace("[*]", "");
      node = node.path("properties").path(name);
      for (int i = segment.indexOf("[*]"); i >= 0; i = segment.indexOf("[*]", i + 1)) {
        String bound = node.path("type").asText().equals("array") ? "maxItems" : "maxProperties";
        if (!node.has(bound)) {
          unbounded.add(id + ": runs on every item of " + name + " (no " + bound + ")");
          runs *= CelCost.UNBOUNDED;
        } else {
          runs *= node.get(bound).asLong();
        }
        node = node.path("type").asText().equals("array") ? node.path("items") : node.path("additionalProperties");
      }
    }
    return runs;
  }
}
