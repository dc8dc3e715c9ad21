package dev.srt.operator.emulator;

import java.util.Map;

/** A numeric emulator knob from the environment, with an error that names the variable and what it takes. */
final class EnvNumber {
  private EnvNumber() {}

  /** The variable's value, {@code fallback} when unset or blank; {@code expected} reads like "a number from 0 to 1". */
  static double read(Map<String, String> env, String name, double fallback, String expected) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw invalid(name, expected, v);
    }
  }

  static IllegalArgumentException invalid(String name, String expected, Object value) {
    return new IllegalArgumentException(name + " must be " + expected + ", got " + value);
  }
}
