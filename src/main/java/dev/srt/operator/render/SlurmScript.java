package dev.srt.operator.render;

import dev.srt.operator.plan.RunPlan;

/** An sbatch job script: #SBATCH header from the cluster and the topology, steps started with srun. */
public final class SlurmScript {
  /** The file name of the script in its run directory. */
  public static final String FILE_NAME = "job.sbatch";

  private SlurmScript() {}

  public static String render(RunPlan plan) {
    RunPlan.SlurmPlan s = plan.slurm();
    StringBuilder out = new StringBuilder("#!/bin/bash\n");
    directive(out, "job-name", "srt-" + plan.comparison() + "-" + plan.arm());
    directive(out, "nodes", String.valueOf(s.nodes()));
    directive(out, "ntasks-per-node", "1");
    if (s.gres()) {
      directive(out, "gres", "gpu:" + s.gpusPerNode());
    }
    directive(out, "time", s.timeLimit());
    if (s.partition() != null) {
      directive(out, "partition", s.partition());
    }
    if (s.account() != null) {
      directive(out, "account", s.account());
    }
    // Relative to the job's working directory, the run directory (sbatch --chdir).
    directive(out, "output", "logs/script.log");
    s.directives().forEach((k, v) -> directive(out, k, v));
    out.append(DirectScript.header(plan));
    // sbatch runs a copy of the script; the run directory is the job's working directory.
    out.append(ScriptBody.render(plan, "\"${SRT_RUN_DIR:-$PWD}\""));
    return out.toString();
  }

  /** {@code #SBATCH --key=value}; sbatch reads these lines itself, so values are single-line (validated). */
  private static void directive(StringBuilder out, String key, String value) {
    out.append("#SBATCH --").append(key);
    if (value != null && !value.isEmpty()) {
      out.append('=').append(value);
    }
    out.append('\n');
  }
}
