package dev.srt.operator.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads multi-document YAML (the same files users {@code kubectl apply}) into trees, remembering
 * the line of every field so problems can be reported as {@code FILE:LINE: PATH: message}.
 */
public final class YamlLoader {
  private static final YAMLFactory YAML = new YAMLFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private YamlLoader() {}

  public static List<SourceDocument> load(Path file) throws IOException {
    return parse(file.toString(), Files.readString(file));
  }

  /** Parses YAML text; {@code name} is used in locations. Empty documents are skipped. */
  public static List<SourceDocument> parse(String name, String text) throws IOException {
    List<SourceDocument> docs = new ArrayList<>();
    try (JsonParser p = YAML.createParser(text)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        int first = p.currentTokenLocation().getLineNr();
        Map<String, Integer> lines = new HashMap<>();
        JsonNode tree = read(p, t, "", lines);
        if (tree != null && !tree.isNull() && !tree.isMissingNode()) {
          docs.add(new SourceDocument(name, docs.size(), first, tree, lines));
        }
      }
    }
    return docs;
  }

  private static JsonNode read(JsonParser p, JsonToken t, String path, Map<String, Integer> lines)
      throws IOException {
    switch (t) {
      case START_OBJECT -> {
        ObjectNode obj = NODES.objectNode();
        while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
          String key = p.currentName();
          String child = FieldPath.field(path, key);
          lines.put(child, p.currentTokenLocation().getLineNr());
          obj.set(key, read(p, p.nextToken(), child, lines));
        }
        return obj;
      }
      case START_ARRAY -> {
        ArrayNode arr = NODES.arrayNode();
        int i = 0;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
          String child = FieldPath.index(path, i++);
          lines.put(child, p.currentTokenLocation().getLineNr());
          arr.add(read(p, t, child, lines));
        }
        return arr;
      }
      case VALUE_STRING -> {
        return NODES.textNode(p.getText());
      }
      case VALUE_NUMBER_INT -> {
        return NODES.numberNode(p.getLongValue());
      }
      case VALUE_NUMBER_FLOAT -> {
        return NODES.numberNode(p.getDecimalValue());
      }
      case VALUE_TRUE -> {
        return NODES.booleanNode(true);
      }
      case VALUE_FALSE -> {
        return NODES.booleanNode(false);
      }
      case VALUE_NULL -> {
        return NODES.nullNode();
      }
      default -> throw new IOException("unexpected YAML token " + t);
    }
  }
}
