package dev.srt.operator.report;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.ComparisonReport.ArmReport;
import dev.srt.operator.verdict.FactComparison;
import dev.srt.operator.verdict.FactKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The provenance table: what the runs were, fact by fact (facts.json of each run), one column per
 * arm. A cell is the arm's value when all its runs agree, else each value with the runs that had
 * it. A held-constant fact whose values differ anywhere in the table is marked (it makes verdicts
 * not-comparable); routing facts are marked as such (arms may differ in them). An engine's server
 * arguments that are equal everywhere fold into one row per engine.
 */
final class Provenance {
  /** One fact: {@code cells} in arm order; {@code differs} when two runs know different values. */
  record Row(String name, String kind, List<String> cells, boolean differs) {
    public boolean routing() {
      return RunFacts.ROUTING.equals(kind);
    }

    /** A held-constant fact that differs: what the reader must look at. */
    public boolean alarm() {
      return differs && RunFacts.HELD_CONSTANT.equals(kind);
    }
  }

  private static final Pattern SERVER_ARG = Pattern.compile("(engine \\S+ server_args)\\..+");

  private Provenance() {}

  /** The rows, or none when no run of the report has facts. */
  static List<Row> rows(ComparisonReport report) {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    for (ArmReport arm : report.arms) {
      runs.put(arm.name, arm.runs.stream().filter(r -> r.facts != null && (r.facts.facts != null || r.facts.heldConstantDigest != null)).toList());
    }
    Set<String> names = new java.util.TreeSet<>(FactComparison.BY_SUBJECT);
    boolean digestsOnly = false;
    for (List<ArmRun> list : runs.values()) {
      for (ArmRun r : list) {
        if (r.facts.facts == null) {
          digestsOnly = true;
        } else {
          r.facts.facts.forEach(f -> names.add(f.name));
        }
      }
    }
    if (digestsOnly) {
      return List.of(row(FactComparison.DIGEST, runs, r -> r.facts.heldConstantDigest == null ? null : fact(FactComparison.DIGEST, r.facts.heldConstantDigest)));
    }
    List<Row> rows = new ArrayList<>();
    Map<String, List<Row>> folded = new LinkedHashMap<>();
    for (String name : names) {
      if (FactKind.of(name) == FactKind.RECORDED) {
        continue;
      }
      Row row = row(name, runs, r -> find(r, name));
      Matcher arg = SERVER_ARG.matcher(name);
      if (arg.matches() && !row.differs()) {
        folded.computeIfAbsent(arg.group(1), k -> new ArrayList<>()).add(row);
      } else {
        rows.add(row);
      }
    }
    folded.forEach((engine, equal) -> rows.add(new Row(engine, RunFacts.HELD_CONSTANT,
        runs.keySet().stream().map(a -> runs.get(a).isEmpty() ? "-" : equal.size() + " arguments, the same in every run").toList(), false)));
    rows.sort(java.util.Comparator.comparing(Row::name, FactComparison.BY_SUBJECT));
    return rows;
  }

  private static RunFact find(ArmRun r, String name) {
    return r.facts.facts.stream().filter(f -> f.name.equals(name)).findFirst().orElse(null);
  }

  private static RunFact fact(String name, String value) {
    return new RunFact(name, RunFacts.HELD_CONSTANT, value, null);
  }

  private static Row row(String name, Map<String, List<ArmRun>> runs, java.util.function.Function<ArmRun, RunFact> of) {
    Set<String> everywhere = new LinkedHashSet<>();
    List<String> cells = new ArrayList<>();
    for (List<ArmRun> list : runs.values()) {
      Map<String, List<Integer>> values = new LinkedHashMap<>();
      Map<String, List<Integer>> unknown = new LinkedHashMap<>();
      for (ArmRun r : list) {
        RunFact f = of.apply(r);
        int rep = r.repetition == null ? 1 : r.repetition;
        if (f == null) {
          values.computeIfAbsent(FactComparison.NOT_REPORTED, v -> new ArrayList<>()).add(rep);
        } else if (f.value != null) {
          values.computeIfAbsent(f.value, v -> new ArrayList<>()).add(rep);
        } else {
          unknown.computeIfAbsent(f.unknown, v -> new ArrayList<>()).add(rep);
        }
      }
      everywhere.addAll(values.keySet());
      cells.add(cell(values, unknown));
    }
    return new Row(name, FactKind.of(name).wire(), cells, everywhere.size() > 1);
  }

  private static String cell(Map<String, List<Integer>> values, Map<String, List<Integer>> unknown) {
    if (values.isEmpty() && unknown.isEmpty()) {
      return "-";
    }
    if (values.size() == 1 && unknown.isEmpty()) {
      return FactComparison.shown(values.keySet().iterator().next());
    }
    List<String> parts = new ArrayList<>();
    values.forEach((v, reps) -> parts.add(FactComparison.shown(v) + " (" + FactComparison.repetitions(reps) + ")"));
    unknown.forEach((why, reps) -> parts.add("unknown (" + FactComparison.repetitions(reps) + "): " + why));
    return String.join(" / ", parts);
  }
}
