package dev.srt.operator.importer;

import dev.srt.operator.config.Problem;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code $NAME} and {@code ${NAME}} in recipe values, resolved from the environment of the import
 * as srtctl resolves them (os.path.expandvars) when it loads a recipe. Unlike expandvars, an unset
 * variable is an error: srtctl would leave the text {@code $NAME} in a path, which fails only on
 * the GPU host, long after the import.
 */
final class EnvReferences {
  private static final Pattern REFERENCE = Pattern.compile("\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)}|([A-Za-z_][A-Za-z0-9_]*))");

  private EnvReferences() {}

  /** The text with every reference replaced; each unset one is reported at {@code where}. */
  static String resolve(String text, String path, Problem.Location where, Function<String, String> env, List<Problem> out) {
    Matcher m = REFERENCE.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String name = name(m);
      String value = env.apply(name);
      if (value == null) {
        out.add(Problem.error(path, "$" + name + " is not set in the environment of the import (srtctl resolves it when it loads the recipe)").at(where));
        value = m.group();
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(value));
    }
    m.appendTail(sb);
    return sb.toString();
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

  private static String name(Matcher m) {
    return m.group(1) != null ? m.group(1) : m.group(2);
  }
}
