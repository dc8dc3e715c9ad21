package dev.srt.operator.render;

import dev.srt.operator.plan.RunPlan;
import java.util.regex.Pattern;

/** An sbatch job script: #SBATCH header from the cluster and the topology, steps started with srun. */
public final class SlurmScript {
  /** The file name of the script in its run directory. */
  public static final String FILE_NAME = "job.sbatch";

  /** sbatch reads these lines itself, splitting them on whitespace: no shell quoting applies. */
  private static final Pattern UNSAFE_IN_DIRECTIVE = Pattern.compile("[\\s\"'#\\\\\\p{Cntrl}]");

  private SlurmScript() {}

  public static String render(RunPlan plan) {
    return write(plan, ScriptText.bounded()).toString();
  }

  static ScriptText write(RunPlan plan, ScriptText out) {
    RunPlan.SlurmPlan s = plan.slurm();
    out.append("#!/bin/bash\n");
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
    ScriptBody.render(plan, "\"${SRT_RUN_DIR:-$PWD}\"", out);
    return out;
  }

  /**
   * {@code #SBATCH --key=value}. The validator limits the values to one word of safe characters
   * (config/ShellSafetyRules); a value that is not is refused here too rather than written as
   * more than one option.
   */
  private static void directive(ScriptText out, String key, String value) {
    if (UNSAFE_IN_DIRECTIVE.matcher(key).find() || (value != null && UNSAFE_IN_DIRECTIVE.matcher(value).find())) {
      throw new IllegalArgumentException("#SBATCH --" + key + ": the value must be one word without quotes, '\\' or '#' (validate the cluster first)");
    }
    out.append("#SBATCH --").append(key);
    if (value != null && !value.isEmpty()) {
      out.append('=').append(value);
    }
    out.append('\n');
  }
}
