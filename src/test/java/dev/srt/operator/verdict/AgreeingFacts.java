package dev.srt.operator.verdict;

import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import java.util.ArrayList;
import java.util.List;

/**
 * Facts that every run of a test agrees on: what a fixture run carries when the test is about its
 * numbers, since the facts check fails closed and refuses a run without facts
 * ({@link FactChecks}).
 */
public final class AgreeingFacts {
  private AgreeingFacts() {}

  /** A new copy (runs are mutable): one held-constant fact and one routing fact, with their digests. */
  public static RunFacts of() {
    RunFacts f = new RunFacts();
    f.facts = new ArrayList<>(List.of(
        new RunFact("model tokenizer.json sha256", FactKind.HELD_CONSTANT.wire(), "3f2a81c0".repeat(8), null),
        new RunFact("router kind", FactKind.ROUTING.wire(), "sgl-router", null)));
    f.count = f.facts.size();
    f.unknownCount = 0;
    f.heldConstantDigest = FactKind.HELD_CONSTANT.digest(f.facts);
    f.routingDigest = FactKind.ROUTING.digest(f.facts);
    return f;
  }
}
