package dev.srt.operator.base;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How an arm is executed: one sbatch job on a Slurm cluster, or one bash script on a GPU host. */
public enum Mode {
  SLURM,
  DIRECT;

  public static Mode parse(String text) {
    return valueOf(text.trim().toUpperCase(Locale.ROOT));
  }

  @JsonValue
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
