package dev.srt.operator.base;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The one quoting function: every value that reaches a shell (rendered scripts, remote commands)
 * goes through {@link #quote}. Single quotes make bash take every byte literally; a single quote
 * inside the value is written as {@code '\''}.
 */
public final class Shell {
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private Shell() {}

  /** Quotes one word. Words made only of safe characters are left bare for readability. */
  public static String quote(String value) {
    if (value == null) {
      throw new IllegalArgumentException("null cannot be quoted");
    }
    if (!value.isEmpty() && SAFE.matcher(value).matches()) {
      return value;
    }
    return "'" + value.replace("'", "'\\''") + "'";
  }

  /** Quotes each word and joins them with spaces: a command line that runs exactly {@code argv}. */
  public static String join(List<String> argv) {
    return argv.stream().map(Shell::quote).collect(Collectors.joining(" "));
  }
}
