package dev.srt.operator.monitoring;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads: every identifier that is not a function, an
 * aggregation, a keyword, a label (in {@code {...}}, {@code by (...)}, {@code on (...)}, ...), a
 * duration ({@code [5m]}), a string or a Grafana variable. Enough of PromQL for the expressions
 * of a dashboard and of alert rules; {@code label_values(metric, label)} (a Grafana variable's
 * query) gives its metric.
 */
final class PromQlNames {
  private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right", "offset",
      "bool", "and", "or", "unless", "inf", "nan", "atan2");
  private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
  private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
  private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w$:.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

  private PromQlNames() {}

  static Set<String> of(String expr) {
    String s = STRING.matcher(expr).replaceAll("\"\"");
    s = s.replaceAll("\\{[^}]*\\}", " ").replaceAll("\\[[^\\]]*\\]", " ");
    s = GROUPING.matcher(s).replaceAll(" ");
    s = s.replaceAll("\\$\\{?\\w+\\}?", " ");
    // label_values(metric, label): the label after the comma is not a metric
    s = s.replaceAll("(label_values\\s*\\([^,()]*),[^)]*\\)", "$1)");
    Set<String> names = new TreeSet<>();
    Matcher m = IDENTIFIER.matcher(s);
    while (m.find()) {
      String name = m.group(1);
      boolean call = m.group(2) != null;
      if (!call && !KEYWORDS.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.matches("\\d.*")) {
        names.add(name);
      }
    }
    return names;
  }
}
