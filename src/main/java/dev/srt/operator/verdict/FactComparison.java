package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The facts of the runs one verdict compares (both arms' runs: across arms, and across the
 * repetitions of each), fact by fact: which held-constant facts differ, naming both values and the
 * runs that had each; which routing facts differ (as they may); which facts some run could not
 * find out. An unknown fact is listed as unknown, never counted as equal or as different.
 *
 * <p>A fact one run has and another does not: in a run that could not ask its source (an engine
 * that did not answer, covered by an unknown fact such as {@code engine worker-0 server_args}) it
 * is unknown; in a run that asked and was not told (an engine without that argument) it is the
 * value {@value #NOT_REPORTED}, which differs from any other.
 */
public final class FactComparison {
  /** The value of a fact that a run's source did not report at all. */
  public static final String NOT_REPORTED = "(not reported)";
  /** The name under which a run without any facts is listed as unknown. */
  public static final String ALL_FACTS = "all facts";
  private static final int SHOWN_CHARS = 60;
  private static final List<String> SUBJECTS = List.of("model ", "workload ", "node ", "engine ", "router ");
  /** Facts in the order reports list them: the model, the workload, the nodes, the engines, the router. */
  public static final Comparator<String> BY_SUBJECT = Comparator.<String>comparingInt(FactComparison::subjectRank)
      .thenComparing(Comparator.naturalOrder());

  private static int subjectRank(String name) {
    for (int i = 0; i < SUBJECTS.size(); i++) {
      if (name.startsWith(SUBJECTS.get(i))) {
        return i;
      }
    }
    return SUBJECTS.size();
  }

  /** A run, as reports name it: repetition {@code repetition} of arm {@code arm}. */
  public record RunLabel(String arm, int repetition) {}

  /** Runs that had one value of a fact. */
  public record Group(String value, List<RunLabel> runs) {
    /** {@code 3f2a81c0… (runs 1-2 of cache-aware)}. */
    public String text() {
      return shown(value) + " (" + label(runs) + ")";
    }
  }

  /** A fact whose known values differ between the runs. */
  public record Difference(String name, FactKind kind, List<Group> groups) {
    /** {@code model tokenizer.json sha256 3f2a81c0… (runs 1-2 of cache-aware) vs 9c41d2e7… (runs 1-2 of round-robin)}. */
    public String text() {
      return name + " " + groups.stream().map(Group::text).collect(Collectors.joining(" vs "));
    }
  }

  /** A fact that some runs could not find out, and why (the first run's reason). */
  public record Unknown(String name, List<RunLabel> runs, String why) {
    /** {@code node 0 GPU driver unknown in run 2 of round-robin: nvidia-smi is not on the PATH on gpu-01}. */
    public String text() {
      return name + " unknown in " + label(runs) + ": " + why;
    }
  }

  private final List<Difference> differing = new ArrayList<>();
  private final List<Unknown> unknown = new ArrayList<>();
  private int equal;

  private FactComparison() {}

  /** Compares the facts of {@code runs} (per arm, in the order reports list them). */
  public static FactComparison of(Map<String, List<ArmRun>> runs) {
    FactComparison c = new FactComparison();
    Map<RunLabel, RunFacts> all = new LinkedHashMap<>();
    runs.forEach((arm, list) -> list.forEach(r -> all.put(new RunLabel(arm, r.repetition == null ? 1 : r.repetition), r.facts)));
    if (all.values().stream().anyMatch(FactComparison::compact)) {
      // A status keeps digests only: then every run is compared by its digest, which says whether, not which.
      all.replaceAll((run, facts) -> facts == null || facts.heldConstantDigest == null ? facts : digestOnly(facts));
    }
    Map<RunLabel, Map<String, RunFact>> byName = new LinkedHashMap<>();
    Map<String, List<RunLabel>> without = new LinkedHashMap<>();
    TreeSet<String> names = new TreeSet<>(BY_SUBJECT);
    all.forEach((run, facts) -> {
      if (facts == null || facts.facts == null) {
        String why = facts == null || facts.unknown == null ? "the run has no facts" : facts.unknown;
        without.computeIfAbsent(why, w -> new ArrayList<>()).add(run);
        return;
      }
      Map<String, RunFact> m = new LinkedHashMap<>();
      facts.facts.forEach(f -> m.put(f.name, f));
      byName.put(run, m);
      names.addAll(m.keySet());
    });
    without.forEach((why, list) -> c.unknown.add(new Unknown(ALL_FACTS, list, why)));
    for (String name : names) {
      c.compare(name, byName);
    }
    return c;
  }

  /** The name under which runs known only by their digests are compared. */
  public static final String DIGEST = "held-constant facts digest";
  /** The name under which their routing facts are compared (a routing fact by its name: they may differ between arms only). */
  public static final String ROUTING_DIGEST = "router facts digest";

  private static boolean compact(RunFacts f) {
    return f != null && f.facts == null && f.heldConstantDigest != null;
  }

  private static RunFacts digestOnly(RunFacts f) {
    RunFacts d = f.compact();
    d.facts = new ArrayList<>(List.of(new RunFact(DIGEST, FactKind.HELD_CONSTANT.wire(), f.heldConstantDigest, null)));
    if (f.routingDigest != null) {
      d.facts.add(new RunFact(ROUTING_DIGEST, FactKind.ROUTING.wire(), f.routingDigest, null));
    }
    return d;
  }

  private void compare(String name, Map<RunLabel, Map<String, RunFact>> byName) {
    FactKind kind = FactKind.of(name);
    if (kind == FactKind.RECORDED) {
      return;
    }
    Map<String, List<RunLabel>> values = new LinkedHashMap<>();
    List<RunLabel> unknownIn = new ArrayList<>();
    String why = null;
    boolean listed = false;
    for (Map.Entry<RunLabel, Map<String, RunFact>> run : byName.entrySet()) {
      RunFact f = run.getValue().get(name);
      if (f == null && hasParts(name, run.getValue())) {
        // this run has the whole (an engine's server_args) in its parts: compared part by part
        continue;
      }
      String reason = f != null ? f.unknown : coveringUnknown(name, run.getValue());
      String value = f != null ? f.value : reason == null ? NOT_REPORTED : null;
      if (value != null) {
        values.computeIfAbsent(value, v -> new ArrayList<>()).add(run.getKey());
      } else {
        unknownIn.add(run.getKey());
        why = why == null ? reason : why;
        // a part unknown because its whole is (listed under the whole's name) is not listed again
        listed |= f != null;
      }
    }
    if (listed && kind == FactKind.HELD_CONSTANT) {
      unknown.add(new Unknown(name, unknownIn, why));
    }
    if (values.size() > 1 && withinTolerance(name, values.keySet())) {
      values = Map.of(values.keySet().iterator().next(), List.of());
    }
    if (values.size() > 1) {
      differing.add(new Difference(name, kind, values.entrySet().stream().map(e -> new Group(e.getKey(), e.getValue())).toList()));
    } else if (values.size() == 1 && unknownIn.isEmpty() && kind == FactKind.HELD_CONSTANT) {
      equal++;
    }
  }

  /**
   * Facts that depend on the GPU memory free when the engine started ({@code max_total_num_tokens}:
   * the KV-cache pages SGLang fits in what is left) and differ a little from run to run on the same
   * GPUs. They are the same when every value is within this fraction of the largest.
   */
  public static final double MEMORY_DEPENDENT_TOLERANCE = 0.02;
  private static final java.util.regex.Pattern MEMORY_DEPENDENT = java.util.regex.Pattern.compile("engine \\S+ server_args\\.max_total_num_tokens");

  private static boolean withinTolerance(String name, java.util.Set<String> values) {
    if (!MEMORY_DEPENDENT.matcher(name).matches()) {
      return false;
    }
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (String v : values) {
      if (!v.matches("[0-9]{1,15}")) {
        return false;
      }
      double d = Double.parseDouble(v);
      min = Math.min(min, d);
      max = Math.max(max, d);
    }
    return max > 0 && (max - min) / max <= MEMORY_DEPENDENT_TOLERANCE;
  }

  private static boolean hasParts(String name, Map<String, RunFact> facts) {
    return facts.keySet().stream().anyMatch(n -> n.startsWith(name + "."));
  }

  /** The reason of an unknown fact whose name starts {@code name} ({@code engine worker-0 server_args}), or null. */
  private static String coveringUnknown(String name, Map<String, RunFact> facts) {
    for (RunFact f : facts.values()) {
      if (f.unknown != null && (name.startsWith(f.name + ".") || name.startsWith(f.name + " "))) {
        return f.unknown;
      }
    }
    return null;
  }

  /** Held-constant facts whose known values differ: each one makes the runs not comparable. */
  public List<Difference> heldConstant() {
    return differing.stream().filter(d -> d.kind() == FactKind.HELD_CONSTANT).toList();
  }

  /** Routing facts whose values differ: what the arms are meant to differ in. */
  public List<Difference> routing() {
    return differing.stream().filter(d -> d.kind() == FactKind.ROUTING).toList();
  }

  /** Held-constant facts some run could not find out, and runs without any facts. */
  public List<Unknown> unknown() {
    return List.copyOf(unknown);
  }

  /** How many held-constant facts every run knows and all agree on. */
  public int equal() {
    return equal;
  }

  /** Whether no held-constant fact differs. */
  public boolean heldConstantEqual() {
    return heldConstant().isEmpty();
  }

  /**
   * {@code held-constant facts differ: A; B; and 3 more}: at most {@code max} differences spelt
   * out; null when none differs.
   */
  public String reason(int max) {
    List<Difference> held = heldConstant();
    if (held.isEmpty()) {
      return null;
    }
    String shown = held.stream().limit(max).map(Difference::text).collect(Collectors.joining("; "));
    return "held-constant facts differ: " + shown + (held.size() > max ? "; and " + (held.size() - max) + " more" : "");
  }

  /** {@code runs 1-2, 4 of cache-aware, run 1 of round-robin}. */
  static String label(List<RunLabel> runs) {
    Map<String, List<Integer>> byArm = new LinkedHashMap<>();
    runs.forEach(r -> byArm.computeIfAbsent(r.arm(), a -> new ArrayList<>()).add(r.repetition()));
    List<String> parts = new ArrayList<>();
    byArm.forEach((arm, reps) -> parts.add(repetitions(reps) + " of " + arm));
    return String.join(", ", parts);
  }

  /** {@code run 2}, {@code runs 1-3, 5}: repetitions of one arm. */
  public static String repetitions(List<Integer> reps) {
    List<Integer> sorted = reps.stream().sorted().distinct().toList();
    return (sorted.size() == 1 ? "run " : "runs ") + ranges(sorted);
  }

  private static String ranges(List<Integer> sorted) {
    List<String> out = new ArrayList<>();
    int start = sorted.get(0);
    int prev = start;
    for (int i = 1; i <= sorted.size(); i++) {
      if (i < sorted.size() && sorted.get(i) == prev + 1) {
        prev = sorted.get(i);
        continue;
      }
      out.add(start == prev ? String.valueOf(start) : start + "-" + prev);
      if (i < sorted.size()) {
        start = sorted.get(i);
        prev = start;
      }
    }
    return String.join(", ", out);
  }

  /**
   * A value as reports show it: a SHA-256 by its first 8 hex digits, a long value by its start
   * and a digest of the whole (so that two long values that differ late never read the same).
   */
  public static String shown(String value) {
    if (value.matches("[0-9a-f]{64}")) {
      return value.substring(0, 8) + "…";
    }
    if (value.length() <= SHOWN_CHARS) {
      return value;
    }
    try {
      String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
      return value.substring(0, SHOWN_CHARS - 16) + "… #" + digest.substring(0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always present", e);
    }
  }
}
