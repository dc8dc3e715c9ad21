package dev.srt.operator.run;

import dev.srt.operator.api.RouterComparisonSpec;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * What every run of an arm shares, whichever driver starts it ({@code apply} or the operator): how
 * a run is named, and in which order arms and their repetitions run.
 */
public final class Runs {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Runs() {}

  /** A fresh run id: {@code r} and 8 hex characters (docs/run-protocol.md). */
  public static String newRunId() {
    byte[] b = new byte[4];
    RANDOM.nextBytes(b);
    return "r" + HexFormat.of().formatHex(b);
  }

  /** Whether {@code spec} asks for its arms in a random order. */
  public static boolean randomized(RouterComparisonSpec spec) {
    return spec.execution != null && "randomized".equals(spec.execution.order);
  }

  /** One run to make: which arm, and which of its repetitions (from 1). */
  public record Slot(String arm, int repetition) {}

  /** {@code spec.execution.repetitions}, or 1. */
  public static int repetitions(RouterComparisonSpec spec) {
    return spec.execution == null ? 1 : spec.execution.repetitionsOrDefault();
  }

  /**
   * Every run of {@code arms} in the order {@code spec.execution.order} asks for: declared runs all
   * repetitions of an arm before the next arm; interleaved runs rounds of every arm; randomized
   * runs rounds each shuffled, drawn in turn from one generator seeded with {@code seed}.
   */
  public static List<Slot> schedule(RouterComparisonSpec spec, List<String> arms, long seed) {
    int repetitions = repetitions(spec);
    String order = spec.execution == null || spec.execution.order == null ? "declared" : spec.execution.order;
    List<Slot> slots = new ArrayList<>();
    if (order.equals("declared")) {
      for (String arm : arms) {
        for (int r = 1; r <= repetitions; r++) {
          slots.add(new Slot(arm, r));
        }
      }
      return slots;
    }
    Random random = new Random(seed);
    for (int r = 1; r <= repetitions; r++) {
      List<String> round = new ArrayList<>(arms);
      if (order.equals("randomized")) {
        Collections.shuffle(round, random);
      }
      for (String arm : round) {
        slots.add(new Slot(arm, r));
      }
    }
    return slots;
  }

  /**
   * The next run to make: the first slot of {@code schedule} whose arm has fewer than its
   * repetition's worth of finished runs ({@code finished}: arm to count), or null when all are done.
   */
  public static Slot next(List<Slot> schedule, java.util.function.ToIntFunction<String> finished) {
    for (Slot slot : schedule) {
      if (slot.repetition() > finished.applyAsInt(slot.arm())) {
        return slot;
      }
    }
    return null;
  }

  /** The operator's seed for a comparison: stable across restarts, new with each spec generation. */
  public static long seed(String uid, long generation) {
    return Objects.hash(uid, generation);
  }
}
