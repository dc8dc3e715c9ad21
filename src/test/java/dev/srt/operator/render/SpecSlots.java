package dev.srt.operator.render;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.base.Mappers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every place of a spec where a string can be written, found by walking the api classes with
 * Jackson's own view of them (so a new field is found without a change here): string fields,
 * present or not, map keys and values, list items, and a new entry or item in every map and list.
 * Objects are walked where the document has them; {@link #patterns} lists every string-bearing
 * field of the classes, present or not, so a test can require that its documents reach them all.
 */
final class SpecSlots {
  enum Kind {
    VALUE,
    ENTRY_VALUE,
    KEY,
    ITEM,
    ADD_KEY,
    ADD_VALUE,
    ADD_ITEM
  }

  /**
   * One place: {@code at} leads from the document to the object holding field {@code name}
   * (VALUE, ADD_*), or to the map or list itself (ENTRY_VALUE, KEY: {@code name} is the key;
   * ITEM: the index). {@code path} is the field path a validator reports for it.
   */
  record Slot(String path, String pattern, Kind kind, List<Object> at, String name) {
    /** Writes {@code value} (or the old text followed by it, with {@code append}) into {@code doc}; false if the place is not in it. */
    boolean apply(JsonNode doc, String value, boolean append) {
      JsonNode node = doc;
      for (Object step : at) {
        node = step instanceof Integer i ? node.path(i) : node.path((String) step);
      }
      if (node.isMissingNode() || node.isNull()) {
        return false;
      }
      switch (kind) {
        case VALUE, ENTRY_VALUE -> {
          JsonNode old = node.path(name);
          ((ObjectNode) node).put(name, append && !old.isMissingNode() && !old.isNull() ? old.asText() + value : value);
        }
        case KEY -> {
          ObjectNode map = (ObjectNode) node;
          Map<String, JsonNode> entries = new LinkedHashMap<>();
          map.fields().forEachRemaining(e -> entries.put(e.getKey().equals(name) ? (append ? name + value : value) : e.getKey(), e.getValue()));
          map.removeAll();
          entries.forEach(map::set);
        }
        case ITEM -> {
          ArrayNode list = (ArrayNode) node;
          int i = Integer.parseInt(name);
          if (i >= list.size()) {
            return false;
          }
          list.set(i, Mappers.json().getNodeFactory().textNode(append ? list.get(i).asText() + value : value));
        }
        case ADD_KEY -> child((ObjectNode) node, name).put(append ? "FUZZ_ADDED" + value : value, "x");
        case ADD_VALUE -> child((ObjectNode) node, name).put("FUZZ_ADDED", append ? "x" + value : value);
        case ADD_ITEM -> {
          JsonNode list = node.path(name);
          (list.isArray() ? (ArrayNode) list : ((ObjectNode) node).putArray(name)).add(append ? "x" + value : value);
        }
      }
      return true;
    }

    private static ObjectNode child(ObjectNode parent, String field) {
      JsonNode c = parent.path(field);
      return c.isObject() ? (ObjectNode) c : parent.putObject(field);
    }

    /**
     * Whether a problem at {@code problemPath} is about this place: at it, under it, or at an
     * object that holds it (a rule about a combination of fields, e.g. {@code spec.dynamo: set
     * exactly one Dynamo install source}), below {@code spec} itself.
     */
    boolean covers(String problemPath) {
      return under(problemPath, path) || (!problemPath.equals("spec") && under(path, problemPath));
    }

    private static boolean under(String p, String ancestor) {
      return p.equals(ancestor) || p.startsWith(ancestor + ".") || p.startsWith(ancestor + "[");
    }
  }

  private SpecSlots() {}

  /** The slots of {@code doc} (a whole object: apiVersion, kind, metadata, spec) whose spec is a {@code specClass}. */
  static List<Slot> of(JsonNode doc, Class<?> specClass, Set<String> excluded) {
    List<Slot> out = new ArrayList<>();
    out.add(new Slot("metadata.name", "metadata.name", Kind.VALUE, List.of("metadata"), "name"));
    if (doc.path("metadata").has("namespace")) {
      out.add(new Slot("metadata.namespace", "metadata.namespace", Kind.VALUE, List.of("metadata"), "namespace"));
    }
    walk(doc.path("spec"), Mappers.json().constructType(specClass), List.of("spec"), "spec", "spec", out);
    out.removeIf(s -> excluded.contains(s.pattern()));
    return out;
  }

  private static void walk(JsonNode node, JavaType type, List<Object> at, String path, String pattern, List<Slot> out) {
    for (BeanPropertyDefinition prop : properties(type)) {
      String name = prop.getName();
      JavaType t = prop.getPrimaryType();
      String p = path + "." + name;
      String pat = pattern + "." + name;
      JsonNode value = node.path(name);
      if (t.hasRawClass(String.class)) {
        out.add(new Slot(p, pat, Kind.VALUE, at, name));
      } else if (t.isMapLikeType()) {
        List<Object> mapAt = append(at, name);
        if (value.isObject()) {
          value.fields().forEachRemaining(e -> {
            out.add(new Slot(p, pat + ".*", Kind.KEY, mapAt, e.getKey()));
            if (e.getValue().isValueNode()) {
              out.add(new Slot(FieldPath.field(p, e.getKey()), pat + ".*", Kind.ENTRY_VALUE, mapAt, e.getKey()));
            } else if (e.getValue().isArray()) {
              for (int i = 0; i < e.getValue().size(); i++) {
                out.add(new Slot(FieldPath.field(p, e.getKey()), pat + ".*[]", Kind.ITEM, append(mapAt, e.getKey()), String.valueOf(i)));
              }
            }
          });
        }
        out.add(new Slot(p, pat + ".*", Kind.ADD_KEY, at, name));
        out.add(new Slot(p, pat + ".*", Kind.ADD_VALUE, at, name));
      } else if (t.isCollectionLikeType() && t.getContentType().hasRawClass(String.class)) {
        for (int i = 0; value.isArray() && i < value.size(); i++) {
          out.add(new Slot(p + "[" + i + "]", pat + "[]", Kind.ITEM, append(at, name), String.valueOf(i)));
        }
        out.add(new Slot(p, pat + "[]", Kind.ADD_ITEM, at, name));
      } else if (t.isCollectionLikeType() && isApi(t.getContentType())) {
        for (int i = 0; value.isArray() && i < value.size(); i++) {
          walk(value.get(i), t.getContentType(), append(append(at, name), i), p + "[" + i + "]", pat + "[]", out);
        }
      } else if (isApi(t) && value.isObject()) {
        walk(value, t, append(at, name), p, pat, out);
      }
    }
  }

  /** Every string-bearing field pattern of {@code specClass}, whether a document has it or not. */
  static Set<String> patterns(Class<?> specClass) {
    Set<String> out = new LinkedHashSet<>();
    patterns(Mappers.json().constructType(specClass), "spec", out, new LinkedHashSet<>());
    return out;
  }

  private static void patterns(JavaType type, String pattern, Set<String> out, Set<Class<?>> seen) {
    if (!seen.add(type.getRawClass())) {
      return;
    }
    for (BeanPropertyDefinition prop : properties(type)) {
      JavaType t = prop.getPrimaryType();
      String pat = pattern + "." + prop.getName();
      if (t.hasRawClass(String.class)) {
        out.add(pat);
      } else if (t.isMapLikeType()) {
        out.add(pat + ".*");
      } else if (t.isCollectionLikeType() && t.getContentType().hasRawClass(String.class)) {
        out.add(pat + "[]");
      } else if (t.isCollectionLikeType() && isApi(t.getContentType())) {
        patterns(t.getContentType(), pat + "[]", out, seen);
      } else if (isApi(t)) {
        patterns(t, pat, out, seen);
      }
    }
    seen.remove(type.getRawClass());
  }

  private static List<BeanPropertyDefinition> properties(JavaType type) {
    BeanDescription d = Mappers.json().getDeserializationConfig().introspect(type);
    return d.findProperties();
  }

  private static boolean isApi(JavaType t) {
    return t.getRawClass().getPackageName().equals("dev.srt.operator.api") && !t.isEnumType();
  }

  private static List<Object> append(List<Object> at, Object step) {
    List<Object> out = new ArrayList<>(at);
    out.add(step);
    return List.copyOf(out);
  }
}
