package dev.srt.operator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.config.Echo;
import dev.srt.operator.config.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * srtctl's sa-bench (bench_serving over random prompts of isl/osl tokens, once per concurrency of
 * {@code benchmark.concurrencies}) as a load ladder: the engines load once and bench-serving climbs
 * the concurrencies. A {@code sweep:} over the concurrency (srtctl submits one job per value, each
 * loading the model) becomes the same ladder; a sweep over anything else is refused: it changes
 * what the arms hold constant, which is a comparison of its own.
 */
final class SaBench {
  /** sa-bench sends ten times the concurrency in prompts at each level (after a warm-up of twice it). */
  static final int PROMPTS_PER_CONCURRENCY = 10;

  private SaBench() {}

  static void workload(Recipe r, Draft d) {
    ObjectNode w = Draft.object(d.spec, "workload");
    w.put("tool", "bench-serving");
    ObjectNode args = Draft.object(d.spec, "workload.args");
    // sa-bench: bench_serving --backend dynamo --endpoint /v1/completions, i.e. the OpenAI completions API
    args.put("backend", "sglang-oai");
    args.put("dataset-name", "random");
    List<Double> levels = null;
    for (Recipe.Leaf l : r.under("benchmark")) {
      switch (l.path()) {
        case "benchmark.type" -> { }
        case "benchmark.isl" -> length(l, d, args, "random-input-len");
        case "benchmark.osl" -> length(l, d, args, "random-output-len");
        case "benchmark.concurrencies" -> levels = concurrencies(r, l, d);
        case "benchmark.req_rate" -> {
          if (!"inf".equals(l.value().asText())) {
            d.problems.add(Problem.error(l.path(), l.shown() + " is not imported: a ladder of concurrencies is a closed loop, and "
                + "open and closed loop never mix in one comparison (use inf, srtctl's default)").at(l.at()));
          }
        }
        default -> {
          if (l.path().startsWith("benchmark.env.")) {
            d.env(d.spec, "workload.env", l);
          } else {
            d.ignore(l, "not an sa-bench field the importer knows");
          }
        }
      }
    }
    if (levels == null) {
      d.problems.add(Problem.error("benchmark.concurrencies", "sa-bench needs concurrencies (a list, or srtctl's 4x8x16)")
          .at(r.locate("benchmark.type")));
      return;
    }
    if (levels.isEmpty()) {
      return;
    }
    ObjectNode load = Draft.object(d.spec, "workload.load");
    load.put("mode", "concurrency");
    ArrayNode out = load.putArray("levels");
    levels.forEach(v -> out.add(v.intValue()));
    int requests = levels.get(levels.size() - 1).intValue() * PROMPTS_PER_CONCURRENCY;
    load.put("requestsPerLevel", requests);
    Problem.Location at = r.locate("benchmark.concurrencies");
    d.notes.add(at.file() + ":" + at.line() + ": workload.load.requestsPerLevel: " + requests + " (sa-bench sends "
        + PROMPTS_PER_CONCURRENCY + " x the concurrency at each; a ladder sends one count at every level: "
        + PROMPTS_PER_CONCURRENCY + " x the largest)");
  }

  private static void length(Recipe.Leaf l, Draft d, ObjectNode args, String flag) {
    if (l.value().canConvertToInt() && l.value().asInt() > 0) {
      args.put(flag, l.value().asInt());
    } else {
      d.problems.add(Problem.error(l.path(), "must be a number of tokens, not " + l.shown()).at(l.at()));
    }
  }

  /**
   * The ladder of {@code benchmark.concurrencies}: a list, srtctl's {@code 4x8x16}, or a sweep's
   * placeholder ({@code [{c}]}, {@code "{c}"}) whose values the recipe's {@code sweep:} lists.
   * Ascending and without repeats (the order of a ladder); empty after a problem.
   */
  private static List<Double> concurrencies(Recipe r, Recipe.Leaf l, Draft d) {
    String placeholder = placeholder(l.written());
    JsonNode values = l.value();
    String path = l.path();
    if (placeholder != null) {
      Recipe.Leaf swept = r.get("sweep." + placeholder);
      if (swept == null) {
        d.problems.add(Problem.error(path, "uses {" + placeholder + "}, which the recipe's sweep does not list").at(l.at()));
        return List.of();
      }
      values = swept.value();
      path = swept.path();
    }
    List<Double> out = new ArrayList<>();
    List<String> items = new ArrayList<>();
    if (values.isArray()) {
      values.forEach(v -> items.add(v.asText()));
    } else if (values.isTextual() || values.isNumber()) {
      items.addAll(List.of(values.asText().split("x", -1)));
    }
    for (String item : items) {
      String s = item.strip();
      if (!s.matches("[0-9]{1,6}") || Integer.parseInt(s) < 1) {
        d.problems.add(Problem.error(path, "must list whole numbers of requests in flight (a list, or 4x8x16), not "
            + Echo.value(s)).at(r.locate(path)));
        return List.of();
      }
      out.add((double) Integer.parseInt(s));
    }
    if (out.isEmpty()) {
      d.problems.add(Problem.error(path, "lists no concurrency").at(r.locate(path)));
      return List.of();
    }
    List<Double> ladder = new ArrayList<>(new TreeSet<>(out));
    if (!ladder.equals(out)) {
      d.notes.add(r.locate(path).file() + ":" + r.locate(path).line() + ": workload.load.levels: " + ladder.stream()
          .map(Double::intValue).toList() + " (the concurrencies ascending, each once: a ladder climbs)");
    }
    return ladder;
  }

  /** {@code c} of a sweep placeholder written as {@code "{c}"}, {@code ["{c}"]} or {@code [{c}]} (YAML reads a map). */
  static String placeholder(JsonNode written) {
    JsonNode one = written.isArray() && written.size() == 1 ? written.get(0) : written;
    if (one.isTextual() && one.asText().matches("\\{[A-Za-z_][A-Za-z0-9_]*\\}")) {
      return one.asText().substring(1, one.asText().length() - 1);
    }
    if (one.isObject() && one.size() == 1) {
      Map.Entry<String, JsonNode> e = one.fields().next();
      return e.getValue().isNull() ? e.getKey() : null;
    }
    return null;
  }

  /**
   * The recipe's {@code sweep:}: each parameter must be the concurrency of an sa-bench ladder, the
   * only sweep a comparison takes in; any other is refused at {@code sweep.<name>}.
   */
  static void sweep(Recipe r, Draft d) {
    Recipe.Leaf concurrencies = r.get("benchmark.concurrencies");
    String used = "sa-bench".equals(r.text("benchmark.type")) && concurrencies != null ? placeholder(concurrencies.written()) : null;
    for (Recipe.Leaf l : r.under("sweep")) {
      String name = l.path().substring("sweep.".length());
      if (!name.equals(used)) {
        d.problems.add(Problem.error(l.path(), "srtctl's sweep over {" + name + "} is not imported: only a sweep over sa-bench's "
            + "benchmark.concurrencies maps to a load ladder (spec.workload.load); anything else changes what the arms hold "
            + "constant: import each value as a comparison of its own").at(l.at()));
      }
    }
  }
}
