package dev.srt.operator.verdict;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The facts check behind every verdict: each arm's succeeded runs and the baseline's, compared
 * fact by fact ({@link FactComparison}). When a held-constant fact differs, the arm's verdicts are
 * not-comparable with the differing facts as their reason, or, with
 * {@code spec.execution.requireFacts: false}, keep their outcome and the report carries a warning.
 */
public final class FactChecks {
  /** How many differing facts a verdict's reason spells out (the report's factChecks list them all). */
  static final int FACTS_IN_REASON = 3;

  private FactChecks() {}

  /** One arm against the baseline, as {@code report --json} prints it under {@code factChecks}. */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public static final class Check {
    /** The arm compared. */
    public String arm;
    /** The arm it is compared with. */
    public String baseline;
    /** Held-constant facts that every compared run knows and all agree on. */
    public int equal;
    /** Held-constant facts that differ, each with both values and the runs that had each. */
    public List<String> differing = new ArrayList<>();
    /** Held-constant facts some run could not find out (never counted as equal or different), and runs without facts. */
    public List<String> unknown = new ArrayList<>();
    /** Routing facts that differ: what the arms are meant to differ in. */
    public List<String> routing = new ArrayList<>();
    /** Whether the differing facts made this arm's verdicts not-comparable. */
    public boolean refused;
  }

  /**
   * Checks each arm other than {@code baseline} against it, over both arms' succeeded runs, and
   * makes that arm's {@code verdicts} not-comparable when held-constant facts differ and
   * {@code requireFacts}. Adds a warning to {@code warnings} for each arm whose differing facts
   * did not refuse its verdicts.
   */
  public static List<Check> apply(Map<String, List<ArmRun>> runs, String baseline, boolean requireFacts, List<Verdict> verdicts,
      List<String> warnings) {
    List<Check> checks = new ArrayList<>();
    if (!runs.containsKey(baseline)) {
      return checks;
    }
    for (String arm : runs.keySet()) {
      if (arm.equals(baseline)) {
        continue;
      }
      Map<String, List<ArmRun>> compared = new LinkedHashMap<>();
      compared.put(baseline, Summaries.succeeded(runs.get(baseline)));
      compared.put(arm, Summaries.succeeded(runs.get(arm)));
      FactComparison c = FactComparison.of(compared);
      Check check = check(arm, baseline, c);
      String reason = c.reason(FACTS_IN_REASON);
      if (reason != null && requireFacts) {
        check.refused = true;
        verdicts.stream().filter(v -> arm.equals(v.arm)).forEach(v -> {
          v.verdict = Verdicts.NOT_COMPARABLE;
          v.reason = reason;
          v.ci95Pct = null;
          // a refused verdict has no word to qualify
          v.note = null;
        });
      } else if (reason != null) {
        warnings.add(arm + " against " + baseline + " (requireFacts: false): " + reason);
      }
      checks.add(check);
    }
    return checks;
  }

  private static Check check(String arm, String baseline, FactComparison c) {
    Check check = new Check();
    check.arm = arm;
    check.baseline = baseline;
    check.equal = c.equal();
    c.heldConstant().forEach(d -> check.differing.add(d.text()));
    c.unknown().forEach(u -> check.unknown.add(u.text()));
    c.routing().forEach(d -> check.routing.add(d.text()));
    return check;
  }

  /**
   * What a {@code FactsDiffer} condition (or its warning event) says of {@code checks}: each arm
   * whose runs differ from the baseline's in a held-constant fact, and the first differences;
   * null when no held-constant fact differs.
   */
  public static String message(List<Check> checks) {
    List<String> parts = new ArrayList<>();
    for (Check c : checks) {
      if (!c.differing.isEmpty()) {
        parts.add(c.arm + " against " + c.baseline + ": " + String.join("; ", c.differing.subList(0, Math.min(FACTS_IN_REASON,
            c.differing.size()))) + (c.differing.size() > FACTS_IN_REASON ? "; and " + (c.differing.size() - FACTS_IN_REASON) + " more" : ""));
      }
    }
    return parts.isEmpty() ? null : "held-constant facts differ between the runs of " + String.join(" · ", parts);
  }
}
