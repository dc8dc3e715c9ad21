package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeSet;

/** A JSON value's shape: every path to a leaf with its type ({@code /a/b[]/c:int}), values left out. */
final class JsonShape {
  private JsonShape() {}

  static TreeSet<String> of(JsonNode node) {
    TreeSet<String> out = new TreeSet<>();
    walk(node, "", out);
    return out;
  }

  private static void walk(JsonNode n, String path, TreeSet<String> out) {
    if (n.isObject()) {
      if (n.isEmpty()) {
        out.add(path + "{}");
      }
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        walk(e.getValue(), path + "/" + e.getKey(), out);
      }
    } else if (n.isArray()) {
      if (n.isEmpty()) {
        out.add(path + "[]");
      }
      n.forEach(x -> walk(x, path + "[]", out));
    } else {
      out.add(path + ":" + type(n));
    }
  }

  private static String type(JsonNode n) {
    if (n.isIntegralNumber()) {
      return "int";
    }
    if (n.isNumber()) {
      return "float";
    }
    return n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }
}
