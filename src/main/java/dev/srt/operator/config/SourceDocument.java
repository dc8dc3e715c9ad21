package dev.srt.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * One YAML document of a file, as a tree, with the line on which each field path was written so
 * that problems can point at {@code FILE:LINE}.
 */
public record SourceDocument(String file, int index, int firstLine, JsonNode tree, Map<String, Integer> lines) {

  /** The line of the path, or of its nearest written ancestor (a missing field's parent). */
  public Problem.Location locate(String path) {
    String p = path;
    while (!p.isEmpty()) {
      Integer line = lines.get(p);
      if (line != null) {
        return new Problem.Location(file, line);
      }
      p = parentOf(p);
    }
    return new Problem.Location(file, firstLine);
  }

  static String parentOf(String path) {
    int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    return cut <= 0 ? "" : path.substring(0, cut);
  }

  public String kind() {
    JsonNode k = tree.get("kind");
    return k == null || !k.isTextual() ? null : k.asText();
  }
}
