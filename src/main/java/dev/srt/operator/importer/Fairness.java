package dev.srt.operator.importer;

import dev.srt.operator.config.Problem;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Fairness at the door: the recipes of a comparison may differ only in routing fields. Every
 * other field (model, topology, engine flags, environment, telemetry, benchmark, and also the
 * fields the import ignores) must be written the same in every recipe, or the import is refused
 * with each differing field, every value and where it was written.
 */
final class Fairness {
  /** The fields an arm may set on its own: its name, its router, and how it uses Dynamo. */
  static boolean routing(String path) {
    return path.equals("name") || path.equals("frontend") || path.startsWith("frontend.") || path.startsWith("frontend[")
        || path.equals("dynamo") || path.startsWith("dynamo.");
  }

  private Fairness() {}

  /**
   * One error per field outside routing that is not the same in every recipe. srtctl's etcd and
   * NATS ports are Dynamo's alone: only the Dynamo arms must agree on them
   * ({@link SrtctlVariables#infraPorts}).
   */
  static List<Problem> differences(List<Recipe> recipes) {
    return differences(recipes, p -> !routing(p) && !SrtctlVariables.dynamoOnly(p), "");
  }

  /** One error per field selected by {@code fields} that differs among {@code recipes}. */
  static List<Problem> differences(List<Recipe> recipes, Predicate<String> fields, String why) {
    Set<String> paths = new LinkedHashSet<>();
    recipes.forEach(r -> r.leaves.keySet().stream().filter(fields).forEach(paths::add));
    List<Problem> out = new ArrayList<>();
    for (String path : paths) {
      if (recipes.stream().map(r -> r.get(path) == null ? null : r.get(path).value()).distinct().count() > 1) {
        out.add(Problem.error(path, values(recipes, path) + why));
      }
    }
    return out;
  }

  /** {@code 64 in a.yaml:44, 32 in b.yaml:44, unset in c.yaml}. */
  static String values(List<Recipe> recipes, String path) {
    List<String> parts = new ArrayList<>();
    for (Recipe r : recipes) {
      Recipe.Leaf l = r.get(path);
      parts.add(l == null ? "unset in " + r.file : (l.value().isNull() ? "null" : l.shown()) + " in " + l.where());
    }
    return String.join(", ", parts);
  }
}
