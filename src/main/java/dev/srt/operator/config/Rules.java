package dev.srt.operator.config;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The small checks every rule class shares (paths, flag maps, env maps, durations), each adding a
 * {@link Problem} with the field path it is given. Public for the router kinds' own rules
 * ({@link FrontendRules}).
 */
public final class Rules {
  public static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  public static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");
  public static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  public static final Pattern CARGO_PACKAGE = Pattern.compile("[A-Za-z0-9_-]+");
  public static final Pattern FLAG_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
  private static final Pattern NEGATIVE_NUMBER = Pattern.compile("-[0-9.][0-9.eE+-]*");
  public static final Pattern SLURM_TIME =
      Pattern.compile("([0-9]+-)?[0-9]+(:[0-9]{1,2}){0,2}|UNLIMITED|INFINITE");

  private Rules() {}

  public static void flags(List<Problem> out, String p, Map<String, Object> args) {
    if (args == null) {
      return;
    }
    for (Map.Entry<String, Object> e : args.entrySet()) {
      String fp = FieldPath.field(p, e.getKey());
      if (!FLAG_NAME.matcher(e.getKey()).matches()) {
        out.add(Problem.error(fp, "is not a flag name (letters, digits, '-', '_' and '.'; without the leading --)"));
      }
      Object v = e.getValue();
      if (v == null) {
        out.add(Problem.error(fp, "needs a value (true for a flag without a value)"));
      }
      optionLike(out, fp, v);
      if (v instanceof List<?> list) {
        for (int i = 0; i < list.size(); i++) {
          if (list.get(i) instanceof Map || list.get(i) instanceof List) {
            out.add(Problem.error(fp + "[" + i + "]", "list items must be scalars"));
          }
          optionLike(out, FieldPath.index(fp, i), list.get(i));
        }
      }
    }
  }
  /**
   * A flag's value is the word after the flag: one that starts with '-' (other than a negative
   * number) would be read as an option by the program, {@code --} as the end of its options.
   */
  private static void optionLike(List<Problem> out, String p, Object value) {
    if (value instanceof String s && s.length() > 1 && s.startsWith("-") && !NEGATIVE_NUMBER.matcher(s).matches()) {
      out.add(Problem.error(p, "must not start with '-': the program would read it as an option, not as the flag's value"));
    }
  }

  public static void flagList(List<Problem> out, String p, List<String> args) {
    if (args == null) {
      return;
    }
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i) == null) {
        out.add(Problem.error(p + "[" + i + "]", "must not be empty"));
      }
    }
  }
  public static void env(List<Problem> out, String p, Map<String, String> env) {
    if (env == null) {
      return;
    }
    for (Map.Entry<String, String> e : env.entrySet()) {
      if (!ENV_NAME.matcher(e.getKey()).matches()) {
        out.add(Problem.error(FieldPath.field(p, e.getKey()), "is not a valid environment variable name"));
      }
      if (e.getValue() == null) {
        out.add(Problem.error(FieldPath.field(p, e.getKey()), "needs a value"));
      }
    }
  }
  public static void directives(List<Problem> out, String p, Map<String, String> directives) {
    if (directives == null) {
      return;
    }
    for (Map.Entry<String, String> e : directives.entrySet()) {
      String fp = FieldPath.field(p, e.getKey());
      if (!FLAG_NAME.matcher(e.getKey()).matches()) {
        out.add(Problem.error(fp, "is not an option name (without the leading --)"));
      }
      singleLine(out, fp, e.getValue());
    }
  }
  public static void singleLine(List<Problem> out, String p, String value) {
    if (value != null && value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      out.add(Problem.error(p, "must be a single line without control characters"));
    }
  }
  public static void requireAbsolute(List<Problem> out, String p, String value, boolean required) {
    if (value == null) {
      if (required) {
        out.add(Problem.error(p, "is required"));
      }
    } else if (!value.startsWith("/")) {
      out.add(Problem.error(p, "must be an absolute host path, not " + Echo.value(value)));
    } else if (value.indexOf('\0') >= 0 || value.indexOf('\n') >= 0) {
      out.add(Problem.error(p, "must not contain NUL or newline"));
    }
  }
  /** Paths that end up inside quoted TOML strings of the Dynamo build. */
  public static void tomlSafe(List<Problem> out, String p, String value) {
    if (value != null && (value.contains("\"") || value.contains("\\"))) {
      out.add(Problem.error(p, "must not contain '\"' or '\\'"));
    }
  }
  /** A duration of at least {@link Durations#MIN}. */
  public static void duration(List<Problem> out, String p, String value) {
    duration(out, p, value, Durations.MIN);
  }

  public static void duration(List<Problem> out, String p, String value, java.time.Duration min) {
    String problem = Durations.problem(value, min);
    if (problem != null) {
      out.add(Problem.error(p, problem));
    }
  }
  public static void positive(List<Problem> out, String p, Integer value) {
    if (value != null && value < 1) {
      out.add(Problem.error(p, "must be at least 1"));
    }
  }
  public static boolean blank(String s) {
    return s == null || s.isBlank();
  }}
