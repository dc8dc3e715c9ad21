package dev.srt.operator.cli;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.RunFactsRead;
import dev.srt.operator.host.Transport;
import dev.srt.operator.verdict.FactComparison;
import dev.srt.operator.verdict.FactKind;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code srt-operator diff --runs RUN RUN}: two runs' facts side by side, read from their run
 * directories on the comparison's GpuCluster (the same command that reads their results). A run
 * is named by its id ({@code r1a2b3c4d}) or {@code ARM/ID}. Shows the facts that differ and those
 * unknown, or every fact with {@code --all}; exits 0 when no held-constant fact differs, 3 when one
 * does or when a run has no readable facts (no facts.json, or one that is malformed, too large or
 * not a regular file): such a run is never taken as agreeing, as in a verdict.
 */
final class RunFactsDiff {
  /** Exit status when a held-constant fact differs or a run has no facts (1 is an error, 2 a usage error). */
  static final int DIFFERENT = 3;
  /** Runs of one arm looked through to find an id. */
  private static final int RUNS_SEARCHED = 1000;

  private RunFactsDiff() {}

  static int run(Inputs in, List<String> names, boolean all, PrintStream out, PrintStream err) {
    GpuCluster cluster = in.cluster();
    if (cluster == null) {
      err.println("diff --runs: give --cluster FILE, or add the GpuCluster " + in.comparison().getSpec().clusterRef.name + " to the -f files");
      return 1;
    }
    String comparison = in.comparison().getMetadata().getName();
    List<String> arms = in.comparison().getSpec().arms.stream().map(a -> a.name).toList();
    try (Transport transport = ApplyCommand.transport(cluster)) {
      Map<String, List<LatestRuns.Found>> found = LatestRuns.find(transport, cluster.getSpec().workDir, ArmRunner.NAMESPACE, comparison,
          arms, RUNS_SEARCHED);
      List<RunRef> refs = new ArrayList<>();
      for (String name : names) {
        RunRef ref = locate(name, found);
        if (ref == null) {
          err.println("diff --runs: no run " + Echo.value(name) + " of " + comparison + " in " + cluster.getSpec().workDir);
          return 1;
        }
        refs.add(ref);
      }
      List<RunFacts> facts = new ArrayList<>();
      for (RunRef ref : refs) {
        facts.add(RunFactsRead.read(transport, cluster.getSpec().workDir, ref));
      }
      return print(refs, facts, all, out);
    } catch (ApplyCommand.UsageError | HostException e) {
      err.println("diff --runs: " + e.getMessage());
      return 1;
    }
  }

  private static RunRef locate(String name, Map<String, List<LatestRuns.Found>> found) {
    String arm = name.contains("/") ? name.substring(0, name.indexOf('/')) : null;
    String id = name.substring(name.indexOf('/') + 1);
    return found.entrySet().stream().filter(e -> arm == null || e.getKey().equals(arm)).flatMap(e -> e.getValue().stream())
        .map(LatestRuns.Found::run).filter(r -> r.runId().equals(id)).findFirst().orElse(null);
  }

  private static int print(List<RunRef> refs, List<RunFacts> facts, boolean all, PrintStream out) {
    List<Map<String, RunFact>> byName = new ArrayList<>();
    TreeSet<String> names = new TreeSet<>(FactComparison.BY_SUBJECT);
    Map<String, List<ArmRun>> compared = new LinkedHashMap<>();
    for (int i = 0; i < refs.size(); i++) {
      RunFacts f = facts.get(i);
      String label = "run " + (char) ('A' + i);
      out.println(label + ": " + Echo.escape(refs.get(i).arm() + "/" + refs.get(i).runId())
          + (f.unknown != null ? ": no facts (" + Echo.escape(f.unknown) + ")" : f.capturedAt == null ? "" : ", facts of " + f.capturedAt));
      Map<String, RunFact> m = new LinkedHashMap<>();
      f.factList().forEach(x -> m.put(x.name, x));
      names.addAll(m.keySet());
      byName.add(m);
      ArmRun run = new ArmRun();
      run.repetition = 1;
      run.facts = f;
      compared.put(label, List.of(run));
    }
    FactComparison c = FactComparison.of(compared);
    Set<String> held = c.heldConstant().stream().map(FactComparison.Difference::name).collect(Collectors.toSet());
    Set<String> routing = c.routing().stream().map(FactComparison.Difference::name).collect(Collectors.toSet());
    Set<String> unknown = c.unknown().stream().map(FactComparison.Unknown::name).collect(Collectors.toSet());
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("", "FACT", "KIND", "RUN A", "RUN B"));
    for (String name : names) {
      String mark = held.contains(name) ? "≠" : routing.contains(name) ? "~" : unknown.contains(name) ? "?" : "";
      if (all || !mark.isEmpty()) {
        rows.add(List.of(mark, Echo.escape(name), FactKind.of(name).wire(), cell(byName.get(0).get(name)), cell(byName.get(1).get(name))));
      }
    }
    c.unknown().stream().filter(u -> u.name().equals(FactComparison.ALL_FACTS))
        .forEach(u -> rows.add(List.of("?", u.name(), "", Echo.escape(u.text()), "")));
    out.println();
    if (rows.size() > 1) {
      Table.print(rows, out);
      out.println();
    }
    out.println(held.size() + " held-constant fact" + (held.size() == 1 ? "" : "s") + " differ, " + c.equal() + " equal, " + unknown.size()
        + " unknown; " + routing.size() + " routing fact" + (routing.size() == 1 ? "" : "s") + " differ" + (all ? "" : " (--all lists every fact)"));
    out.println("≠ held constant and different: verdicts over these runs are not comparable · ~ routing, different · ? unknown in a run");
    List<String> without = new ArrayList<>();
    for (int i = 0; i < refs.size(); i++) {
      if (facts.get(i).facts == null) {
        without.add("run " + (char) ('A' + i) + " (" + Echo.escape(refs.get(i).arm() + "/" + refs.get(i).runId()) + ")");
      }
    }
    if (!without.isEmpty()) {
      // fail closed, as the verdicts do: a run without facts could have run anything
      out.println(String.join(" and ", without) + (without.size() == 1 ? " has" : " have")
          + " no readable facts: the runs cannot be shown to be comparable");
    }
    return held.isEmpty() && without.isEmpty() ? 0 : DIFFERENT;
  }

  private static String cell(RunFact f) {
    if (f == null) {
      return "-";
    }
    return Echo.escape(f.value != null ? FactComparison.shown(f.value) : "unknown: " + Objects.toString(f.unknown, ""));
  }
}
