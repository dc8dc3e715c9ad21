package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.Mode;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.HostCheck;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.Transport;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.Prerequisites;
import dev.srt.operator.plan.RunPlan;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "check", mixinStandardHelpOptions = true, description = {
    "Checks what the comparison's arms need on the GpuCluster's host, in one command.",
    "It looks for that and only that: the Slurm commands, partition and job shape (sbatch --test-only), or the direct host's free ports; GPUs per node and their type; python3 and",
    "the packages the processes import (sglang, dynamo, ...); cargo, rustc, git, pip where a build runs them; etcd and",
    "nats-server where an arm starts them; the container runtime; the model directory; free disk in workDir.",
    "Prints a table requirement / found / ok and exits 0 when everything required is there, else 1, naming each missing",
    "requirement with its fix. Submits nothing. The operator checks the same before it submits (condition PrerequisitesMet)."})
public final class CheckCommand implements Callable<Integer> {
  @Mixin ComparisonOptions input;

  @Mixin ArmOption only;

  @Override
  public Integer call() {
    ApplyCommand.quietHostLogs();
    PrintStream out = System.out;
    PrintStream err = System.err;
    try {
      Inputs in = input.load(null, err);
      List<String> arms = only.of(in, err);
      RouterComparison rc = in.comparison();
      GpuCluster cluster = ApplyCommand.emulated(in.requireCluster("check needs the GpuCluster to check"), out);
      List<RunPlan> plans = new ArrayList<>();
      for (String name : arms) {
        plans.add(Planner.plan(rc, cluster, name, null));
      }
      List<Prerequisites.Needed> needed = Prerequisites.of(cluster.getSpec(), plans);
      try (Transport transport = ApplyCommand.transport(cluster)) {
        out.println(Echo.escape("checking RouterComparison " + rc.getMetadata().getName() + " on GpuCluster "
            + cluster.getMetadata().getName() + " (" + Mode.parse(cluster.getSpec().mode).id() + " mode, " + transport.describe()
            + "): " + String.join(", ", arms)));
        HostCheck.Report report = HostCheck.run(transport, needed, cluster.getSpec().path, cluster.getSpec().env);
        print(report, out);
        return report.met() ? 0 : 1;
      } catch (HostException e) {
        err.println("check: " + Echo.escape(e.getMessage()));
        return 1;
      }
    } catch (Inputs.Invalid e) {
      return 1;
    } catch (ApplyCommand.UsageError e) {
      err.println(Echo.escape("check: " + e.getMessage()));
      return 1;
    }
  }

  /** The table, then each missing requirement with who needs it and its fix. */
  static void print(HostCheck.Report report, PrintStream out) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("REQUIREMENT", "FOUND", "OK"));
    for (HostCheck.Finding f : report.findings()) {
      rows.add(List.of(Echo.escape(f.requirement().label()), Echo.escape(f.found()),
          f.ok() ? "yes" : f.requirement().optional() ? "no (optional)" : "NO"));
    }
    out.println();
    Table.print(rows, out);
    out.println();
    List<HostCheck.Finding> missing = report.missing();
    if (missing.isEmpty()) {
      out.println("all " + report.findings().size() + " requirements met");
      return;
    }
    out.println(missing.size() + " requirement(s) missing:");
    for (HostCheck.Finding f : missing) {
      out.println("  " + Echo.escape(f.requirement().label()) + " (needed by " + String.join(", ", f.needed().neededBy()) + "): "
          + Echo.escape(f.found()));
      out.println("    fix: " + Echo.escape(f.requirement().fix()));
    }
  }
}
