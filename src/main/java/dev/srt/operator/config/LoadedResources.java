package dev.srt.operator.config;

import dev.srt.operator.base.Mappers;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.Api;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The RouterComparisons and GpuClusters read from YAML files, and every problem found in them
 * (schema and semantic), each located at {@code FILE:LINE}.
 */
public final class LoadedResources {
  private static final Set<String> TOP_LEVEL = Set.of("apiVersion", "kind", "metadata", "spec", "status");

  private final List<RouterComparison> comparisons = new ArrayList<>();
  private final List<GpuCluster> clusters = new ArrayList<>();
  private final List<Problem> problems = new ArrayList<>();
  private final List<String> skipped = new ArrayList<>();
  private final Map<Object, SourceDocument> sources = new IdentityHashMap<>();
  private GpuCluster override;

  public static LoadedResources load(List<Path> files) {
    return load(files, null);
  }

  /**
   * Loads {@code files}; when {@code clusterFile} is given, its GpuCluster is the one every
   * comparison is checked against and runs on, whatever the comparison's clusterRef names.
   */
  public static LoadedResources load(List<Path> files, Path clusterFile) {
    LoadedResources r = new LoadedResources();
    List<Path> all = new ArrayList<>(files);
    if (clusterFile != null) {
      all.add(clusterFile);
    }
    for (Path f : all) {
      try {
        r.addAll(YamlLoader.load(f));
      } catch (YamlLoader.Rejected e) {
        r.problems.addAll(e.problems());
      } catch (JsonProcessingException e) {
        r.problems.add(notYaml(f.toString(), e));
      } catch (IOException e) {
        r.problems.add(Problem.error("", "cannot read: " + reason(e)).at(new Problem.Location(f.toString(), 1)));
      }
    }
    if (clusterFile != null) {
      r.override = r.clusters.stream().filter(c -> r.sources.get(c).file().equals(clusterFile.toString()))
          .reduce((a, b) -> b).orElse(null);
      if (r.override == null && !r.hasErrors()) {
        r.problems.add(Problem.error("kind", "no GpuCluster in this file").at(new Problem.Location(clusterFile.toString(), 1)));
      }
    }
    r.duplicateClusters();
    r.validate();
    return r;
  }

  /** Loads YAML text (tests, stdin). */
  public static LoadedResources parse(String name, String yaml) {
    LoadedResources r = new LoadedResources();
    try {
      r.addAll(YamlLoader.parse(name, yaml));
    } catch (YamlLoader.Rejected e) {
      r.problems.addAll(e.problems());
    } catch (JsonProcessingException e) {
      r.problems.add(notYaml(name, e));
    } catch (IOException e) {
      r.problems.add(Problem.error("", "cannot read: " + reason(e)).at(new Problem.Location(name, 1)));
    }
    r.duplicateClusters();
    r.validate();
    return r;
  }

  /** A YAML syntax error, at the line where the parser stopped. */
  private static Problem notYaml(String file, JsonProcessingException e) {
    int line = e.getLocation() == null || e.getLocation().getLineNr() < 1 ? 1 : e.getLocation().getLineNr();
    String why = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
    // SnakeYAML's message interleaves its sentences with indented source excerpts; keep the sentences.
    String sentences = String.join("; ", why.lines().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0))).toList());
    return Problem.error("", "not valid YAML: " + (sentences.isEmpty() ? why.strip() : sentences)).at(new Problem.Location(file, line));
  }

  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof CharacterCodingException) {
      return "not UTF-8 text";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private void addAll(List<SourceDocument> docs) {
    SchemaCheck schema = new SchemaCheck(Mappers.json());
    for (SourceDocument doc : docs) {
      List<Problem> found = new ArrayList<>();
      JsonNode tree = doc.tree();
      if (!tree.isObject()) {
        found.add(Problem.error("", "a document must be a Kubernetes object (a map with apiVersion and kind)"));
        problems.addAll(locate(doc, found));
        continue;
      }
      String kind = doc.kind();
      Class<?> type = "RouterComparison".equals(kind) ? RouterComparison.class
          : "GpuCluster".equals(kind) ? GpuCluster.class : null;
      if (type == null && OtherKinds.isOther(tree)) {
        // A bundle applied with kubectl holds Secrets, Namespaces, ...: not ours to read.
        skipped.add(OtherKinds.describe(tree, doc.locate("")));
        continue;
      }
      if (type == null) {
        found.add(Problem.error("kind", kind == null ? "is required: RouterComparison or GpuCluster"
            : "unknown kind " + Echo.value(kind) + "; expected RouterComparison or GpuCluster"));
        problems.addAll(locate(doc, found));
        continue;
      }
      JsonNode apiVersion = tree.get("apiVersion");
      if (apiVersion == null || !Api.API_VERSION.equals(apiVersion.asText())) {
        found.add(Problem.error("apiVersion", "must be " + Api.API_VERSION));
      }
      tree.fieldNames().forEachRemaining(f -> {
        if (!TOP_LEVEL.contains(f)) {
          found.add(Problem.error(f, SchemaCheck.UNKNOWN_FIELD + "; known fields: apiVersion, kind, metadata, spec, status"));
        }
      });
      JsonNode spec = tree.get("spec");
      if (spec == null || spec.isNull()) {
        found.add(Problem.error("spec", "is required"));
      } else {
        Class<?> specType = type == RouterComparison.class ? dev.srt.operator.api.RouterComparisonSpec.class
            : dev.srt.operator.api.GpuClusterSpec.class;
        found.addAll(schema.check(spec, specType, "spec"));
      }
      // Unknown fields are reported but do not stop binding: the semantic rules still run.
      if (found.stream().noneMatch(p -> p.isError() && !SchemaCheck.isUnknownField(p))) {
        try {
          Object resource = Mappers.json().treeToValue(tree, type);
          sources.put(resource, doc);
          if (resource instanceof RouterComparison rc) {
            comparisons.add(rc);
          } else {
            clusters.add((GpuCluster) resource);
          }
        } catch (JsonProcessingException e) {
          found.add(Problem.error("", "cannot read " + kind + ": " + e.getOriginalMessage()));
        }
      }
      problems.addAll(locate(doc, found));
    }
  }

  /** Two GpuClusters of one name: which one a clusterRef means would depend on the order of the files. */
  private void duplicateClusters() {
    Map<String, GpuCluster> byName = new java.util.LinkedHashMap<>();
    for (GpuCluster c : clusters) {
      String name = c.getMetadata() == null ? null : c.getMetadata().getName();
      GpuCluster first = name == null ? null : byName.putIfAbsent(name, c);
      if (first != null && !sources.get(first).locate("").equals(sources.get(c).locate(""))) {
        Problem.Location a = sources.get(first).locate("metadata.name");
        Problem.Location b = sources.get(c).locate("metadata.name");
        problems.add(Problem.error("metadata.name", "GpuCluster " + Echo.value(name) + " is defined twice: in " + a.file() + ":" + a.line()
            + " and in " + b.file() + ":" + b.line() + "; keep one").at(b));
      }
    }
  }

  private void validate() {
    for (GpuCluster c : clusters) {
      problems.addAll(locate(sources.get(c), Validator.validate(c)));
    }
    for (RouterComparison rc : comparisons) {
      problems.addAll(locate(sources.get(rc), Validator.validate(rc, clusterFor(rc).orElse(null))));
    }
  }

  private static List<Problem> locate(SourceDocument doc, List<Problem> found) {
    return found.stream().map(p -> p.at(doc.locate(p.path()))).toList();
  }

  /** The cluster the comparison runs on: the explicit one, or the one its clusterRef names. */
  public Optional<GpuCluster> clusterFor(RouterComparison rc) {
    if (override != null) {
      return Optional.of(override);
    }
    String name = rc.getSpec() == null || rc.getSpec().clusterRef == null ? null : rc.getSpec().clusterRef.name;
    return clusters.stream().filter(c -> c.getMetadata() != null && c.getMetadata().getName() != null
        && c.getMetadata().getName().equals(name)).findFirst();
  }

  public List<RouterComparison> comparisons() {
    return comparisons;
  }

  public List<GpuCluster> clusters() {
    return clusters;
  }

  public List<Problem> problems() {
    return problems;
  }

  /** Objects of other kinds in the files (a Secret, a Namespace, ...), left alone: {@code Secret h100-box-ssh (bundle.yaml:12)}. */
  public List<String> skipped() {
    return skipped;
  }

  public boolean hasErrors() {
    return problems.stream().anyMatch(Problem::isError);
  }
}
