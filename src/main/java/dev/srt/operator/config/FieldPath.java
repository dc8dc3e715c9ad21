package dev.srt.operator.config;

import java.util.regex.Pattern;

/** Builds field paths such as {@code spec.arms[1].frontend.args.page-size}. */
public final class FieldPath {
  private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z0-9_\\-/]+");

  private FieldPath() {}

  /** The path of a map key; a key that is not plain is quoted, escaped and cut as {@link Echo#value} does. */
  public static String field(String parent, String name) {
    String shown = Echo.value(name);
    String key = PLAIN_KEY.matcher(shown).matches() ? shown : "[\"" + shown.replace("\"", "\\\"") + "\"]";
    if (parent.isEmpty()) {
      return key;
    }
    return key.startsWith("[") ? parent + key : parent + "." + key;
  }

  public static String index(String parent, int i) {
    return parent + "[" + i + "]";
  }
}
