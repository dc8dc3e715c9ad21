package dev.srt.operator.cli;

import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.RunPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(mixinStandardHelpOptions = true, name = "plan", description = {
    "Prints the run plan of each arm: its processes, build stages and readiness gates.",
    "Each plan has the processes' argv, env, ports, GPUs and probes. With --arm, one plan object; otherwise an array with",
    "one plan per arm. JSON (default) or -o yaml. Schema: docs/plan-format.md.",
    "Without a GpuCluster (--cluster FILE, or the one clusterRef names in the files), it plans for documented defaults",
    "and says which on stderr, as it does the comparison's estimated benchmark time (per run, per arm and in total)."})
public final class PlanCommand implements Callable<Integer> {
  @Mixin ComparisonOptions input;

  @Mixin ArmOption only;

  @Option(names = "--mode", paramLabel = "slurm|direct", description = "Plan for this mode instead of the cluster's.")
  String mode;

  @Mixin OutputFormat output;

  @Override
  public Integer call() throws Exception {
    try {
      Inputs in = input.load(mode == null ? null : Mode.parse(mode), System.err);
      List<RunPlan> plans = new ArrayList<>();
      for (String a : only.of(in, System.err)) {
        plans.add(in.plan(a));
      }
      System.err.println(ValidateCommand.benchmarkTime(in.comparison()));
      Object out = only.arm != null ? plans.get(0) : plans;
      System.out.print(OutputFormat.write(out, output.orElse(OutputFormat.Format.JSON, OutputFormat.Format.JSON, OutputFormat.Format.YAML)));
      return 0;
    } catch (Inputs.Invalid e) {
      return 1;
    }
  }
}
