package dev.srt.operator.verdict;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The facts check behind every verdict, which fails closed: each arm's succeeded runs and the
 * baseline's, compared fact by fact ({@link FactComparison}). An arm's verdicts are not-comparable,
 * with the reason, when a held-constant fact differs between those runs, when a measured run of
 * either arm has no facts (no facts.json, or one that could not be read: {@link ArmFacts}), or when
 * a routing fact differs between the repetitions of one arm (two routers averaged as one). A run
 * without facts could have run anything: it is never taken as agreeing. With
 * {@code spec.execution.requireFacts: false} the verdicts keep their outcome and the report carries
 * the same reason as a warning.
 */
public final class FactChecks {
  /** How many differing facts (or runs without facts) a verdict's reason spells out (the report's factChecks list them all). */
  static final int FACTS_IN_REASON = 3;
  /** How a reason introduces routing facts that differ within one arm. */
  static final String ROUTING_WITHIN_ARM = "routing facts differ between the runs of one arm (two routers averaged as one): ";

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
    /** Measured runs of either arm without facts, each naming the run and why (no facts.json, a malformed one, ...). */
    public List<String> withoutFacts = new ArrayList<>();
    /** Routing facts that differ between the runs of one arm (the arm or the baseline): two routers averaged as one. */
    public List<String> routingWithinArm = new ArrayList<>();
    /** Why the facts do not vouch for the arm's verdicts (their reason when refused, else the warning's); absent when they do. */
    public String reason;
    /** Whether this check made the arm's verdicts not-comparable. */
    public boolean refused;
  }

  /**
   * Checks each arm other than {@code baseline} against it, over both arms' succeeded runs, and
   * makes that arm's {@code verdicts} not-comparable when the check fails and {@code requireFacts}.
   * Adds a warning to {@code warnings} for each arm whose failed check did not refuse its verdicts.
   */
  public static List<Check> apply(Map<String, List<ArmRun>> runs, String baseline, boolean requireFacts, List<Verdict> verdicts,
      List<String> warnings) {
    List<Check> checks = new ArrayList<>();
    if (!runs.containsKey(baseline)) {
      return checks;
    }
    List<ArmRun> base = Summaries.succeeded(runs.get(baseline));
    for (String arm : runs.keySet()) {
      if (arm.equals(baseline)) {
        continue;
      }
      List<ArmRun> mine = Summaries.succeeded(runs.get(arm));
      Map<String, List<ArmRun>> compared = new LinkedHashMap<>();
      compared.put(baseline, base);
      compared.put(arm, mine);
      FactComparison c = FactComparison.of(compared);
      Check check = check(arm, baseline, c);
      // the baseline's own runs first: a baseline without facts refuses every verdict against it
      check.withoutFacts.addAll(ArmFacts.withoutFacts(baseline, base));
      check.withoutFacts.addAll(ArmFacts.withoutFacts(arm, mine));
      ArmFacts.routingWithin(baseline, base).forEach(d -> check.routingWithinArm.add(d.text()));
      ArmFacts.routingWithin(arm, mine).forEach(d -> check.routingWithinArm.add(d.text()));
      String reason = reason(check, c);
      check.reason = reason;
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
        warnings.add(line(check));
      }
      checks.add(check);
    }
    return checks;
  }

  /**
   * Why the facts do not vouch for the verdicts of {@code check}: runs without facts, routers that
   * differ within an arm, held-constant facts that differ, in that order; null when they do.
   */
  private static String reason(Check check, FactComparison c) {
    List<String> parts = new ArrayList<>();
    if (!check.withoutFacts.isEmpty()) {
      parts.add(firstFew(check.withoutFacts));
    }
    if (!check.routingWithinArm.isEmpty()) {
      parts.add(ROUTING_WITHIN_ARM + firstFew(check.routingWithinArm));
    }
    String held = c.reason(FACTS_IN_REASON);
    if (held != null) {
      parts.add(held);
    }
    return parts.isEmpty() ? null : String.join(" · ", parts);
  }

  /**
   * One line per failed check, for a listing that shows no verdicts ({@code srt-operator status}):
   * {@code dynamo-kv against sgl-router: verdicts not comparable: REASON}, or with requireFacts:
   * false the report's warning, {@code dynamo-kv against sgl-router (requireFacts: false): REASON}.
   */
  public static List<String> lines(List<Check> checks) {
    return checks.stream().filter(c -> c.reason != null).map(FactChecks::line).toList();
  }

  private static String line(Check c) {
    return c.arm + " against " + c.baseline + (c.refused ? ": verdicts not comparable: " : " (requireFacts: false): ") + c.reason;
  }

  /** {@code a; b; c; and 2 more}. */
  private static String firstFew(List<String> items) {
    return String.join("; ", items.subList(0, Math.min(FACTS_IN_REASON, items.size())))
        + (items.size() > FACTS_IN_REASON ? "; and " + (items.size() - FACTS_IN_REASON) + " more" : "");
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
   * What a {@code FactsDiffer} condition (or its warning event) says of {@code checks}: the runs
   * without facts, the routing facts that differ within an arm, then each arm whose runs differ
   * from the baseline's in a held-constant fact, with the first differences; null when every
   * check passed. Said whether or not the checks refused verdicts: with requireFacts: false this
   * is the status's warning.
   */
  public static String message(List<Check> checks) {
    Set<String> without = new LinkedHashSet<>();
    Set<String> routing = new LinkedHashSet<>();
    List<String> parts = new ArrayList<>();
    for (Check c : checks) {
      without.addAll(c.withoutFacts);
      routing.addAll(c.routingWithinArm);
      if (!c.differing.isEmpty()) {
        parts.add(c.arm + " against " + c.baseline + ": " + firstFew(c.differing));
      }
    }
    List<String> out = new ArrayList<>();
    if (!without.isEmpty()) {
      out.add(firstFew(List.copyOf(without)));
    }
    if (!routing.isEmpty()) {
      out.add(ROUTING_WITHIN_ARM + firstFew(List.copyOf(routing)));
    }
    if (!parts.isEmpty()) {
      out.add("held-constant facts differ between the runs of " + String.join(" · ", parts));
    }
    return out.isEmpty() ? null : String.join(" · ", out);
  }
}
