package dev.srt.operator.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kubernetes-style durations: {@code 30m}, {@code 1h30m}, {@code 10s}, {@code 500ms}. */
public final class Durations {
  private static final Pattern WHOLE = Pattern.compile("([0-9]+(ms|s|m|h))+");
  private static final Pattern PART = Pattern.compile("([0-9]+)(ms|s|m|h)");

  private Durations() {}

  public static boolean isValid(String text) {
    return text != null && WHOLE.matcher(text).matches();
  }

  /** Parses {@code text}, or returns {@code fallback} when it is null. */
  public static Duration parse(String text, Duration fallback) {
    if (text == null) {
      return fallback;
    }
    if (!isValid(text)) {
      throw new IllegalArgumentException("not a duration: " + text);
    }
    Duration d = Duration.ZERO;
    Matcher m = PART.matcher(text);
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      d = d.plus(switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofHours(n);
      });
    }
    return d;
  }
}
