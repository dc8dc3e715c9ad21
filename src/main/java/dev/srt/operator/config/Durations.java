package dev.srt.operator.config;

import java.time.Duration;

/**
 * Kubernetes-style durations: {@code 30m}, {@code 1h30m}, {@code 10s}, {@code 500ms}; at most
 * {@link #MAX} (7 days: no health check, poll or connect timeout needs longer, and the bound keeps
 * every arithmetic on a duration far from overflowing).
 */
public final class Durations {
  /** The longest duration any field accepts. */
  public static final Duration MAX = Duration.ofHours(168);
  /** {@link #MAX} as written in a spec. */
  public static final String MAX_TEXT = "168h";
  /**
   * The shortest wait or timeout a spec may give: {@code 0s} would make a poll or a health check
   * loop without pause, or give up at once. The operator's poll of a cluster may be faster.
   */
  public static final Duration MIN = Duration.ofSeconds(1);
  /** The shortest {@code pollInterval}: one command to the cluster's host each time. */
  public static final Duration MIN_POLL = Duration.ofMillis(100);
  private static final long MAX_MILLIS = MAX.toMillis();
  private static final long OVER = -1;
  private static final long NOT_A_DURATION = -2;

  private Durations() {}

  /** Whether {@code text} is a duration of at most {@link #MAX}. */
  public static boolean isValid(String text) {
    return text != null && millis(text) >= 0;
  }

  /** Why {@code text} is not an accepted duration (for {@code FIELD: <this>}), or null when it is one. */
  public static String problem(String text) {
    if (text == null) {
      return null;
    }
    long ms = millis(text);
    if (ms == NOT_A_DURATION) {
      return "must be a duration such as 30m, 10s or 1h30m, not " + Echo.value(text);
    }
    if (ms == OVER) {
      return "must be at most " + MAX_TEXT + " (7 days), not " + Echo.value(text);
    }
    return null;
  }

  /** As {@link #problem(String)}, and at least {@code min}. */
  public static String problem(String text, Duration min) {
    String problem = problem(text);
    if (problem == null && text != null && millis(text) < min.toMillis()) {
      return "must be at least " + (min.toMillis() % 1000 == 0 ? min.toSeconds() + "s" : min.toMillis() + "ms")
          + " (a wait of nothing would repeat without pause), not " + Echo.value(text);
    }
    return problem;
  }

  /**
   * Parses {@code text}, or returns {@code fallback} when it is null. Never throws for a value
   * that {@link #isValid} accepts (the validator checks every duration field first).
   *
   * @throws IllegalArgumentException for anything else, with the reason
   */
  public static Duration parse(String text, Duration fallback) {
    if (text == null) {
      return fallback;
    }
    long ms = millis(text);
    if (ms < 0) {
      throw new IllegalArgumentException(problem(text));
    }
    return Duration.ofMillis(ms);
  }

  /**
   * The duration in milliseconds, {@link #OVER} above {@link #MAX} or {@link #NOT_A_DURATION}.
   * A hand-written scanner rather than a regex: linear on any input, and each number is compared
   * with the bound before it is multiplied, so nothing can overflow.
   */
  private static long millis(String text) {
    if (text.isEmpty()) {
      return NOT_A_DURATION;
    }
    long total = 0;
    int i = 0;
    while (i < text.length()) {
      long n = 0;
      int start = i;
      while (i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
        // Saturate above the bound: the value no longer matters once it is too large.
        n = Math.min(n * 10 + (text.charAt(i) - '0'), MAX_MILLIS + 1);
        i++;
      }
      if (i == start || i == text.length()) {
        return NOT_A_DURATION;
      }
      long unit;
      if (text.startsWith("ms", i)) {
        unit = 1;
        i += 2;
      } else {
        unit = switch (text.charAt(i)) {
          case 's' -> 1_000;
          case 'm' -> 60_000;
          case 'h' -> 3_600_000;
          default -> 0;
        };
        if (unit == 0) {
          return NOT_A_DURATION;
        }
        i++;
      }
      // n <= MAX_MILLIS + 1 and unit <= 3.6e6, so n * unit < 2.2e15: no overflow.
      total = Math.min(total + n * unit, MAX_MILLIS + 1);
    }
    return total > MAX_MILLIS ? OVER : total;
  }

  /** {@code 3.2 days}, {@code 31.7 years}, {@code 5.0 h}: a length of time in seconds as a person reads it. */
  static String describe(double seconds) {
    double[] sizes = {365.25 * 86400, 86400, 3600, 60, 1};
    String[] names = {"years", "days", "h", "min", "s"};
    for (int i = 0; i < sizes.length; i++) {
      if (seconds >= sizes[i] || i == sizes.length - 1) {
        return String.format(java.util.Locale.ROOT, "%.1f %s", seconds / sizes[i], names[i]);
      }
    }
    return seconds + " s";
  }
}
