package dev.srt.operator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.config.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects being written (the comparison's spec, the GpuCluster skeleton's spec) and what the
 * import has to say: problems that refuse it, fields it ignores (each with its reason) and notes
 * on values it chose.
 */
final class Draft {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A recipe field the import does not carry over, and why. */
  record Ignored(String path, String reason, Problem.Location at) {
    @Override
    public String toString() {
      return at.file() + ":" + at.line() + ": ignored " + path + ": " + reason;
    }
  }

  final ObjectNode spec = NODES.objectNode();
  final ObjectNode cluster = NODES.objectNode();
  final List<Problem> problems = new ArrayList<>();
  final List<String> notes = new ArrayList<>();
  /** The secret variables, each with the key of the Secret that holds it: written as spec.secretEnv. */
  final Map<String, String> secretEnv = new LinkedHashMap<>();
  private final Map<String, Ignored> ignored = new LinkedHashMap<>();

  void ignore(Recipe.Leaf leaf, String reason) {
    ignored.putIfAbsent(leaf.path(), new Ignored(leaf.path(), reason, leaf.at()));
  }

  void error(Recipe.Leaf leaf, String message) {
    problems.add(Problem.error(leaf.path(), message).at(leaf.at()));
  }

  /**
   * An environment entry into the env map {@code parents} of {@code root}; a secret one
   * ({@link Recipe.Leaf#secret}) becomes a secretEnv reference instead, its value written nowhere.
   */
  void env(ObjectNode root, String parents, Recipe.Leaf leaf) {
    if (leaf.secret() == null) {
      set(root, parents, leaf.key(), com.fasterxml.jackson.databind.node.TextNode.valueOf(leaf.value().asText()));
    } else if (secretEnv.putIfAbsent(leaf.key(), leaf.secret()) == null) {
      notes.add(leaf.where() + ": " + leaf.path() + " looks secret: spec.secretEnv." + leaf.key() + " references it (Secret key "
          + leaf.secret() + "); its value is not written");
    }
  }

  /** {@code FILE:LINE: ignored PATH: reason}, once per field. */
  List<String> ignored() {
    return ignored.values().stream().map(Ignored::toString).toList();
  }

  /** Sets {@code root.a.b.c}, creating the objects on the way; the last key may hold any character. */
  static void set(ObjectNode root, String parents, String key, JsonNode value) {
    object(root, parents).set(key, value);
  }

  static ObjectNode object(ObjectNode root, String parents) {
    ObjectNode o = root;
    if (!parents.isEmpty()) {
      for (String k : parents.split("\\.")) {
        o = o.has(k) ? (ObjectNode) o.get(k) : o.putObject(k);
      }
    }
    return o;
  }
}
