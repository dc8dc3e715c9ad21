package dev.srt.operator.run;

import dev.srt.operator.api.RouterComparisonSpec;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * What every run of an arm shares, whichever driver starts it ({@code apply} or the operator): how
 * a run is named, in which order arms run, and how long a job may be unknown to its host.
 */
public final class Runs {
  /**
   * How long a submitted job may be unknown to the host, without any event from its run, before
   * the arm fails: long enough for a slow scheduler to list a fresh job, short enough to notice a
   * job that vanished.
   */
  public static final Duration NOT_FOUND_GRACE = Duration.ofMinutes(1);

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

  /** {@code arms} in the order {@code spec.execution.order} asks for; a randomized order is drawn with {@code seed}. */
  public static List<String> order(RouterComparisonSpec spec, List<String> arms, long seed) {
    List<String> ordered = new ArrayList<>(arms);
    if (ordered.size() > 1 && randomized(spec)) {
      Collections.shuffle(ordered, new Random(seed));
    }
    return ordered;
  }

  /** The operator's seed for a comparison: stable across restarts, new with each spec generation. */
  public static long seed(String uid, long generation) {
    return Objects.hash(uid, generation);
  }
}
