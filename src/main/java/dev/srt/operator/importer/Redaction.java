package dev.srt.operator.importer;

import dev.srt.operator.config.Echo;
import dev.srt.operator.config.Problem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * No message of an import shows a value it resolved: where a message would echo one (a validation
 * problem quoting the field's value, whole or cut after {@value Echo#MAX_CHARS} characters), the
 * variable's reference ({@code ${NAME}}) is shown instead.
 */
final class Redaction {
  /** Shorter values are left alone: they say nothing, and would match ordinary words. */
  private static final int MIN_LENGTH = 4;

  private final List<Map.Entry<String, String>> values;

  private Redaction(Map<String, String> resolved) {
    this.values = new ArrayList<>(resolved.entrySet().stream().filter(e -> e.getValue().length() >= MIN_LENGTH).toList());
    // Longer values first, so that one containing another is replaced whole.
    this.values.sort(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getValue().length()).reversed());
  }

  static Redaction of(Map<String, String> resolved) {
    return new Redaction(resolved);
  }

  RecipeImport.Result apply(RecipeImport.Result r) {
    if (values.isEmpty()) {
      return r;
    }
    List<Problem> problems = r.problems().stream()
        .map(p -> new Problem(p.severity(), text(p.path()), text(p.message()), p.location())).toList();
    return new RecipeImport.Result(r.comparisonYaml(), r.clusterYaml(), problems, r.ignored().stream().map(this::text).toList(),
        r.notes().stream().map(this::text).toList());
  }

  /** {@code text} with every resolved value, as written or as a message shows it (escaped, cut), replaced by its reference. */
  String text(String text) {
    String out = text;
    for (Map.Entry<String, String> e : values) {
      String reference = "${" + e.getKey() + "}";
      String shown = Echo.escape(e.getValue());
      out = out.replace(e.getValue(), reference).replace(shown, reference);
      // A message cuts a long value after Echo.MAX_CHARS characters: the start of a value, then "...".
      for (int n = Math.min(shown.length() - 1, Echo.MAX_CHARS); n >= MIN_LENGTH; n--) {
        String cut = shown.substring(0, n) + "...";
        if (out.contains(cut)) {
          out = out.replace(cut, reference + "...");
          break;
        }
      }
    }
    return out;
  }
}
