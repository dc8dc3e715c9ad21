package dev.srt.operator.importer;

import dev.srt.operator.api.Limits;
import dev.srt.operator.config.Problem;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code $NAME} and {@code ${NAME}} in recipe values. srtctl resolves every one from its
 * environment when it loads a recipe (os.path.expandvars); the import resolves none it is not told
 * to: only the names given with {@code --env NAME} (their values are then written into the
 * comparison), never a name that looks secret ({@link #looksSecret}), which can only become a
 * {@code secretEnv} reference. Any other reference refuses the import, naming the variable and its
 * {@code FILE:LINE}. What it resolves is bounded: a value of at most {@value #MAX_VALUE} characters,
 * a resolved field of at most {@link Limits#MAX_LONG_TEXT}, and {@value #MAX_RESOLVED} characters in
 * all, each checked before the text is built.
 */
final class EnvReferences {
  /** The longest value of a variable given with --env: no recipe value holds more. */
  static final int MAX_VALUE = Limits.MAX_TEXT;
  /** The characters all resolved values of one import may add up to. */
  static final long MAX_RESOLVED = 4L << 20;
  private static final Pattern REFERENCE = Pattern.compile("\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)}|([A-Za-z_][A-Za-z0-9_]*))");
  private static final Pattern SECRET = Pattern.compile(".*(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL).*");

  private final Map<String, String> given;
  private final Map<String, String> resolved = new LinkedHashMap<>();
  private long added;

  /** {@code given}: the variables given with --env and their values, null for one not set (checked with {@link #problems}). */
  EnvReferences(Map<String, String> given) {
    this.given = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(given));
  }

  /** Names that look like a secret's (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL, in any case): never resolved into a file. */
  static boolean looksSecret(String name) {
    return SECRET.matcher(name.toUpperCase(Locale.ROOT)).matches();
  }

  /** Why a variable cannot be given with --env, or null when it can. */
  static String refusal(String name, String value) {
    if (!Pattern.matches("[A-Za-z_][A-Za-z0-9_]*", name)) {
      return "is not an environment variable name";
    }
    if (looksSecret(name)) {
      return "looks like a secret (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL): its value is never written into a file; the import "
          + "turns references to it into spec.secretEnv entries instead";
    }
    if (value == null) {
      return "is not set in this environment";
    }
    if (value.length() > MAX_VALUE) {
      return "has a value of " + value.length() + " characters; no recipe value holds more than " + MAX_VALUE;
    }
    return null;
  }

  /** The refusals of the given variables, one per name. */
  List<Problem> problems() {
    return given.entrySet().stream().filter(e -> refusal(e.getKey(), e.getValue()) != null)
        .map(e -> Problem.error("", "--env " + e.getKey() + " " + refusal(e.getKey(), e.getValue()))).toList();
  }

  /**
   * The text with every reference to a given variable replaced; any other reference is reported at
   * {@code where} and left as written. Nothing is built when the result would be too long.
   */
  String resolve(String text, String path, Problem.Location where, List<Problem> out) {
    Matcher m = REFERENCE.matcher(text);
    long length = text.length();
    boolean any = false;
    while (m.find()) {
      String name = name(m);
      String value = given.get(name);
      if (value == null) {
        out.add(Problem.error(path, "$" + name + (looksSecret(name)
            ? " looks like a secret: it is never resolved into the comparison; only a whole environment value ($NAME alone) "
                + "becomes a spec.secretEnv reference"
            : " is not resolved: give --env " + name + " to take its value from the environment of the import (it is then "
                + "written into the comparison; srtctl resolves it when it loads the recipe)")).at(where));
      } else {
        length += value.length() - m.group().length();
        any = true;
      }
    }
    if (!any) {
      return text;
    }
    if (length > Limits.MAX_LONG_TEXT || added + length > MAX_RESOLVED) {
      out.add(Problem.error(path, "resolving its variables would make it " + length + " characters long ("
          + (length > Limits.MAX_LONG_TEXT ? "no field holds more than " + Limits.MAX_LONG_TEXT : "more than " + MAX_RESOLVED
              + " characters resolved in one import") + ")").at(where));
      return text;
    }
    added += length;
    StringBuilder sb = new StringBuilder((int) length);
    m.reset();
    while (m.find()) {
      String name = name(m);
      String value = given.get(name);
      if (value != null) {
        resolved.put(name, value);
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(value == null ? m.group() : value));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  /** The variable a value consists of alone ({@code $NAME} or {@code ${NAME}}), or null. */
  static String whole(String text) {
    Matcher m = REFERENCE.matcher(text.strip());
    return m.matches() ? name(m) : null;
  }

  /** The names referenced in a shell command, in order of first use. */
  static Set<String> names(String text) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = REFERENCE.matcher(text);
    while (m.find()) {
      names.add(name(m));
    }
    return names;
  }

  /** Whether {@code name} was given with --env (its value may be written). */
  boolean given(String name) {
    return given.get(name) != null;
  }

  /** The value of a given variable, to be written as it is (a command's variable into workload.env). */
  String take(String name) {
    String value = given.get(name);
    if (value != null) {
      resolved.put(name, value);
    }
    return value;
  }

  /** The variables resolved so far and their values: no message may show one of these values. */
  Map<String, String> resolved() {
    return resolved;
  }

  private static String name(Matcher m) {
    return m.group(1) != null ? m.group(1) : m.group(2);
  }
}
