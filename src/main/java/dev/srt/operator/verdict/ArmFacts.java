package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.RunFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the facts of one arm's own runs say before it is compared with another arm: which of its
 * measured runs have no facts to vouch for them, and which routing facts differ between its
 * repetitions. Either leaves a verdict over those runs unsupported: a run without facts could have
 * run on another driver, model or engine build; an arm whose runs had two routers averages two
 * routers as one. Both fail closed ({@link FactChecks}).
 */
final class ArmFacts {
  private ArmFacts() {}

  /**
   * {@code run r1a2b3c4 of dynamo-kv has no facts: facts.json is malformed: not JSON}: one line
   * for each run of {@code runs} (succeeded runs of {@code arm}) whose numbers count and whose
   * facts are unknown: no facts.json, or one that could not be read (too large, malformed, not a
   * regular file), or none read at all. A run known by its digests (the operator's status) has them.
   */
  static List<String> withoutFacts(String arm, List<ArmRun> runs) {
    List<String> out = new ArrayList<>();
    for (ArmRun r : runs) {
      if (measured(r) && !known(r.facts)) {
        String why = r.facts == null || r.facts.unknown == null ? "none were read with its results" : r.facts.unknown;
        out.add(name(arm, r) + " has no facts: " + why);
      }
    }
    return out;
  }

  /**
   * The routing facts that differ between {@code runs} (succeeded runs of {@code arm}), each naming
   * both values and the repetitions that had each. Routing facts may differ between arms, never
   * within one: its verdicts would average two routers.
   */
  static List<FactComparison.Difference> routingWithin(String arm, List<ArmRun> runs) {
    return runs.size() < 2 ? List.of() : FactComparison.of(Map.of(arm, runs)).routing();
  }

  /** Whether {@code facts} holds a run's facts, in full or as digests. */
  static boolean known(RunFacts facts) {
    return facts != null && (facts.facts != null || facts.heldConstantDigest != null);
  }

  /** Whether the run has numbers that a summary counts: its results, or a level's. */
  private static boolean measured(ArmRun r) {
    return r.results != null || r.levels != null && r.levels.stream().map((LevelResults l) -> l.results).anyMatch(Objects::nonNull);
  }

  /** {@code run r1a2b3c4 of dynamo-kv}, or by its repetition when it has no id. */
  private static String name(String arm, ArmRun r) {
    return "run " + (r.runId != null ? r.runId : String.valueOf(r.repetition == null ? 1 : r.repetition)) + " of " + arm;
  }
}
