package dev.srt.operator.importer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.config.Echo;
import dev.srt.operator.config.Problem;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An aiperf {@code --goodput "time_to_first_token:2000 inter_token_latency:25"} in a recipe's
 * benchmark command (srtctl's mooncake-router sets exactly that) as {@code spec.slo}: the same
 * thresholds, judged by srt-operator from the per-request data, so that every arm's capacity is
 * found against the objective the recipe's authors chose.
 */
final class Goodput {
  private static final Pattern OPTION = Pattern.compile("--goodput(?:=|\\s+)(?:\"([^\"]*)\"|'([^']*)'|(\\S+))");
  /** aiperf's metric tags and the spec.slo field each maps to. */
  private static final Map<String, String> FIELDS = Map.of("time_to_first_token", "ttftMs", "inter_token_latency", "itlMs",
      "request_latency", "e2eMs");

  private Goodput() {}

  static void slo(String command, Draft d, Problem.Location at) {
    Matcher m = OPTION.matcher(command);
    if (!m.find()) {
      return;
    }
    String pairs = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
    ObjectNode slo = Draft.object(d.spec, "slo");
    for (String pair : pairs.strip().split("\\s+")) {
      String[] kv = pair.split(":", 2);
      String field = kv.length == 2 ? FIELDS.get(kv[0]) : null;
      if (field == null || !kv[1].matches("[0-9]{1,8}(\\.[0-9]{1,3})?")) {
        d.problems.add(Problem.error(Recipe.COMMAND, "--goodput " + Echo.value(pair) + " is not imported: spec.slo takes "
            + String.join(", ", FIELDS.keySet().stream().sorted().toList()) + " in milliseconds").at(at));
        continue;
      }
      slo.put(field, Double.parseDouble(kv[1]));
    }
    d.notes.add(at.file() + ":" + at.line() + ": spec.slo from the command's --goodput " + Echo.value(pairs)
        + " (srt-operator judges ITL by the 99th percentile of a request's own gaps; attainment: the default 0.99)");
  }
}
