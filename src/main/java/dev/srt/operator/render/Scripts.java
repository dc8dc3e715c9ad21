package dev.srt.operator.render;

import dev.srt.operator.plan.RunPlan;

/** The script of a plan, by mode. */
public final class Scripts {
  private Scripts() {}

  public static String render(RunPlan plan) {
    return switch (plan.mode()) {
      case SLURM -> SlurmScript.render(plan);
      case DIRECT -> DirectScript.render(plan);
    };
  }

  public static String fileName(RunPlan plan) {
    return switch (plan.mode()) {
      case SLURM -> SlurmScript.FILE_NAME;
      case DIRECT -> DirectScript.FILE_NAME;
    };
  }
}
