package dev.srt.operator.render;

import dev.srt.operator.plan.RunPlan;

/** One bash script that supervises a whole arm on one GPU host. */
public final class DirectScript {
  /** The file name of the script in its run directory. */
  public static final String FILE_NAME = "run.sh";

  private DirectScript() {}

  public static String render(RunPlan plan) {
    return write(plan, ScriptText.bounded()).toString();
  }

  static ScriptText write(RunPlan plan, ScriptText out) {
    out.append("#!/usr/bin/env bash\n").append(header(plan));
    // The run directory is where the script was written (SRT_RUN_DIR overrides).
    ScriptBody.render(plan, "\"${SRT_RUN_DIR:-$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)}\"", out);
    return out;
  }

  static String header(RunPlan plan) {
    return "# srt-operator: RouterComparison " + oneLine(plan.comparison()) + ", arm " + oneLine(plan.arm()) + ", " + plan.mode().id() + " mode.\n"
        + "# Rendered from the arm's plan (srt-operator plan); re-render rather than edit.\n";
  }

  static String oneLine(String s) {
    return s.replaceAll("[\\r\\n]", " ");
  }
}
