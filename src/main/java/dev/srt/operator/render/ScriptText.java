package dev.srt.operator.render;

import dev.srt.operator.api.Limits;

/**
 * Where a script is written, with a bound on its size in UTF-8 bytes ({@link Limits#MAX_SCRIPT_BYTES}):
 * the operator renders in its own process, so a spec whose script would not fit is refused when
 * the text reaches the bound, before more is allocated, not after the heap is gone. The same
 * writer also only counts ({@link #counting}), which is how the validator measures a script
 * without keeping it: the two always agree.
 */
final class ScriptText {
  /** A script beyond the bound. */
  static final class TooLarge extends IllegalArgumentException {
    TooLarge(String message) {
      super(message);
    }
  }

  private final StringBuilder text;
  private final long limit;
  private long bytes;

  private ScriptText(boolean keep, long limit) {
    this.text = keep ? new StringBuilder(64 * 1024) : null;
    this.limit = limit;
  }

  /** Keeps the text, up to {@link Limits#MAX_SCRIPT_BYTES}. */
  static ScriptText bounded() {
    return new ScriptText(true, Limits.MAX_SCRIPT_BYTES);
  }

  /** Counts the bytes only, up to {@code limit}. */
  static ScriptText counting(long limit) {
    return new ScriptText(false, limit);
  }

  ScriptText append(String s) {
    long more = utf8Length(s);
    if (bytes + more > limit) {
      bytes = limit + 1;
      throw new TooLarge("the script would be more than " + limit + " bytes (" + (limit >> 20) + " MiB): validate the spec, "
          + "which names the values that make it so large");
    }
    bytes += more;
    if (text != null) {
      text.append(s);
    }
    return this;
  }

  ScriptText append(char c) {
    return append(String.valueOf(c));
  }

  long bytes() {
    return bytes;
  }

  @Override
  public String toString() {
    if (text == null) {
      throw new IllegalStateException("a counting ScriptText keeps no text");
    }
    return text.toString();
  }

  static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
