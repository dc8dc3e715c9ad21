package dev.srt.operator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.srt.operator.config.Echo;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.SourceDocument;
import dev.srt.operator.config.YamlLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One srtctl recipe (one arm), as its leaves: every scalar or list, and every entry of a map
 * field (engine flags, env, router args), with its resolved value and the line it was written on.
 */
final class Recipe {
  /** Fields whose entries are values in their own right (a flag or variable each), not fields. */
  private static final Pattern MAP_FIELDS = Pattern.compile(
      "frontend\\.(args|env)|environment|benchmark\\.(env|aiperf_args)|backend\\.sglang_config\\.(aggregated|prefill|decode)"
          + "|backend\\.(aggregated|prefill|decode)_environment|backend\\.kv_events_config|container_mounts|srun_options"
          + "|sbatch_directives|observability\\.tachometer\\.extra_metadata|sweep");
  /** srtctl's file-level extras: a recipe of this kind expands to several, or depends on another file. */
  private static final Pattern FILE_LEVEL = Pattern.compile("base|lock|(zip_)?override_.*");
  /** Maps of environment variables: an entry may be a secret, which becomes a secretEnv reference, never a value. */
  private static final Pattern ENV_MAPS = Pattern.compile(
      "frontend\\.env|environment|benchmark\\.env|backend\\.(aggregated|prefill|decode)_environment");
  /** A shell command, run by bash at run time: its $NAMEs are the shell's, not the import's. */
  static final String COMMAND = "benchmark.command";

  /**
   * One value of the recipe: {@code value} with the given variables resolved, {@code written} as
   * in the file (what messages show). {@code secret} is the Secret key of an environment entry that
   * is a secret (its name looks secret, or its value is a secret-looking variable alone): its value
   * is never resolved nor written, it becomes a secretEnv reference.
   */
  record Leaf(String path, String key, JsonNode value, JsonNode written, Problem.Location at, String secret) {
    String shown() {
      return Echo.value(written.isTextual() ? written.asText() : written.toString());
    }

    String where() {
      return at.file() + ":" + at.line();
    }
  }

  final String file;
  final Map<String, Leaf> leaves = new LinkedHashMap<>();

  private Recipe(String file) {
    this.file = Echo.escape(file);
  }

  /** Reads a recipe; problems (unreadable, file-level extras, variables not resolved) go to {@code out}. */
  static Recipe load(Path path, EnvReferences env, List<Problem> out) {
    Recipe r = new Recipe(path.toString());
    List<SourceDocument> docs;
    try {
      docs = YamlLoader.load(path);
    } catch (YamlLoader.Rejected e) {
      out.addAll(e.problems());
      return null;
    } catch (IOException e) {
      out.add(Problem.error("", "cannot read the recipe: " + e.getMessage()).at(new Problem.Location(r.file, 1)));
      return null;
    }
    if (docs.size() != 1 || !docs.get(0).tree().isObject()) {
      out.add(Problem.error("", "a recipe is one YAML mapping (one arm per file); found " + docs.size() + " documents")
          .at(new Problem.Location(r.file, 1)));
      return null;
    }
    SourceDocument doc = docs.get(0);
    List<Problem> problems = new ArrayList<>();
    doc.tree().fieldNames().forEachRemaining(k -> {
      if (FILE_LEVEL.matcher(k).matches()) {
        problems.add(Problem.error(k, "srtctl's " + k + ": is not imported: resolve it first (one recipe per arm, e.g. the output of "
            + "srtctl dry-run or a lockfile's recipe written out)").at(doc.locate(k)));
      }
    });
    r.walk(doc, "", doc.tree(), env, problems);
    out.addAll(problems);
    return r;
  }

  private void walk(SourceDocument doc, String path, JsonNode node, EnvReferences env, List<Problem> out) {
    if (!node.isObject()) {
      leaf(doc, path, path, node, env, out, false);
      return;
    }
    boolean map = MAP_FIELDS.matcher(path).matches();
    node.fields().forEachRemaining(e -> {
      String child = FieldPath.field(path, e.getKey());
      if (map) {
        leaf(doc, child, e.getKey(), e.getValue(), env, out, ENV_MAPS.matcher(path).matches());
      } else {
        walk(doc, child, e.getValue(), env, out);
      }
    });
  }

  /** {@code key}: the map key of an entry of a map field (else the path); {@code envEntry}: an entry of an environment map. */
  private void leaf(SourceDocument doc, String path, String key, JsonNode value, EnvReferences env, List<Problem> out, boolean envEntry) {
    Problem.Location at = doc.locate(path);
    String secret = null;
    if (envEntry && !value.isContainerNode()) {
      String variable = value.isTextual() ? EnvReferences.whole(value.asText()) : null;
      secret = variable != null && EnvReferences.looksSecret(variable) ? variable : EnvReferences.looksSecret(key) ? key : null;
    }
    JsonNode resolved = value;
    if (secret == null && value.isTextual() && !COMMAND.equals(path)) {
      resolved = TextNode.valueOf(env.resolve(value.asText(), path, at, out));
    }
    leaves.put(path, new Leaf(path, key, resolved, value, at, secret));
  }

  Leaf get(String path) {
    return leaves.get(path);
  }

  String text(String path) {
    Leaf l = leaves.get(path);
    return l == null || l.value().isNull() ? null : l.value().asText();
  }

  /** The leaves at or under {@code prefix}. */
  List<Leaf> under(String prefix) {
    return leaves.values().stream().filter(l -> l.path().equals(prefix) || l.path().startsWith(prefix + ".")).toList();
  }

  /** Where the recipe says {@code path}, or the start of the file. */
  Problem.Location locate(String path) {
    Leaf l = leaves.get(path);
    return l != null ? l.at() : new Problem.Location(file, 1);
  }
}
