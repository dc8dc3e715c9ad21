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

  /**
   * The size of the plan's script in bytes, counted as it is rendered without keeping it; {@code
   * limit + 1} once it is beyond {@code limit} (counting stops there).
   */
  public static long bytes(RunPlan plan, long limit) {
    ScriptText counter = ScriptText.counting(limit);
    try {
      switch (plan.mode()) {
        case SLURM -> SlurmScript.write(plan, counter);
        case DIRECT -> DirectScript.write(plan, counter);
      }
    } catch (ScriptText.TooLarge e) {
      return limit + 1;
    }
    return counter.bytes();
  }

  public static String fileName(RunPlan plan) {
    return switch (plan.mode()) {
      case SLURM -> SlurmScript.FILE_NAME;
      case DIRECT -> DirectScript.FILE_NAME;
    };
  }
}
