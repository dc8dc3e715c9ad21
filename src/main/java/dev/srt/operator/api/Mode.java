package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How an arm is executed: one sbatch job on a Slurm cluster, or one bash script on a GPU host. */
public enum Mode {
  SLURM,
  DIRECT;

  /** @throws IllegalArgumentException when {@code text} names no mode */
  public static Mode parse(String text) {
    Mode mode = of(text);
    if (mode == null) {
      throw new IllegalArgumentException("unknown mode: " + text + " (expected slurm or direct)");
    }
    return mode;
  }

  /** The mode {@code text} names ({@code slurm}, {@code direct}), or null. */
  public static Mode of(String text) {
    for (Mode m : values()) {
      if (m.id().equals(text)) {
        return m;
      }
    }
    return null;
  }

  @JsonValue
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
