package dev.srt.operator.config;

/**
 * How a value from the input is shown in a message. A message goes to a terminal, a status
 * condition or an event, so a value must not be able to add lines, move the cursor, reorder text
 * (bidi controls such as U+202E) or flood the output: such characters are shown as {@code \}{@code
 * uXXXX} escapes and a long value is cut after {@value #MAX_CHARS} characters, ending in "...".
 */
public final class Echo {
  /** At most this many characters of a value are shown (escapes count as their length). */
  public static final int MAX_CHARS = 80;
  static final String CUT = "...";

  private Echo() {}

  /** The value escaped and cut to {@value #MAX_CHARS} characters; {@code null} for null. */
  public static String value(Object value) {
    if (value == null) {
      return "null";
    }
    String text = value.toString();
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_CHARS + CUT.length()));
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      String shown = shown(cp);
      if (out.length() + shown.length() > MAX_CHARS) {
        return out.append(CUT).toString();
      }
      out.append(shown);
      i += Character.charCount(cp);
    }
    return out.toString();
  }

  /**
   * The text with every character that could change how the terminal shows it escaped, and
   * nothing cut (for whole messages; values in them were cut by {@link #value}). Idempotent:
   * escaping an escaped text changes nothing.
   */
  public static String escape(String text) {
    if (text == null || text.codePoints().noneMatch(Echo::unsafe)) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    text.codePoints().forEach(cp -> out.append(shown(cp)));
    return out.toString();
  }

  private static String shown(int cp) {
    if (!unsafe(cp)) {
      return Character.toString(cp);
    }
    return cp <= 0xFFFF ? String.format("\\u%04X", cp) : String.format("\\U%08X", cp);
  }

  /** Control (including newline and tab), format (bidi, zero-width), separators, lone surrogates, unassigned. */
  private static boolean unsafe(int cp) {
    return switch (Character.getType(cp)) {
      case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
          Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED -> true;
      default -> false;
    };
  }
}
