package dev.srt.operator.cli;

import dev.srt.operator.config.Echo;
import dev.srt.operator.plan.ArmDiff;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.RunPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(mixinStandardHelpOptions = true, name = "diff", description = {
    "Shows what differs between the arms.",
    "It lists the fields that express the difference, and which rendered parts (worker commands, router command,",
    "builds, gates, benchmark) are identical across arms. With --runs RUN RUN it shows what two runs were, fact by fact",
    "(their facts.json on the GpuCluster), and exits 3 when a held-constant fact differs or a run has no readable facts."})
public final class DiffCommand implements Callable<Integer> {
  @Mixin ComparisonOptions input;

  @Option(names = "--mode", paramLabel = "slurm|direct", description = "Compare the scripts of this mode instead of the cluster's.")
  String mode;

  @Option(names = "--runs", arity = "2", paramLabel = "RUN", description = "Compare the facts of these two runs (ID or ARM/ID) instead.")
  List<String> runs;

  @Option(names = "--all", description = "With --runs: every fact, not only those that differ or are unknown.")
  boolean all;

  @Override
  public Integer call() {
    try {
      Inputs in = input.load(mode == null ? null : Mode.parse(mode), System.err);
      if (runs != null) {
        return RunFactsDiff.run(in, runs, all, System.out, System.err);
      }
      Map<String, RunPlan> plans = new LinkedHashMap<>();
      for (String arm : in.arms(null, System.err)) {
        plans.put(arm, in.plan(arm));
      }
      ArmDiff.Result diff = ArmDiff.of(in.comparison(), plans);
      System.out.println("RouterComparison " + in.comparison().getMetadata().getName() + ": " + diff.arms().size() + " arms");
      System.out.println();
      System.out.println("Fields that express the difference (everything else is shared):");
      List<List<String>> rows = new ArrayList<>();
      List<String> header = new ArrayList<>(List.of("FIELD"));
      header.addAll(diff.arms());
      rows.add(header);
      for (ArmDiff.FieldRow f : diff.fields()) {
        List<String> row = new ArrayList<>(List.of(f.field()));
        diff.arms().forEach(a -> row.add(f.values().get(a) == null ? "-" : f.values().get(a)));
        rows.add(row);
      }
      Table.print(rows, System.out);
      System.out.println();
      System.out.println("Rendered parts:");
      for (ArmDiff.PartRow p : diff.parts()) {
        System.out.println(Echo.escape("  " + p.part() + ": " + p.describe(diff.arms())));
      }
      return 0;
    } catch (Inputs.Invalid e) {
      return 1;
    }
  }
}
