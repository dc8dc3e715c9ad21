package dev.srt.operator.config;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a YAML tree against the Java API classes before binding: unknown fields (a typo in a
 * GitOps repo must not be silently ignored) and values of the wrong type, all at once, each with
 * its field path. The real API server does the same with its structural schema.
 */
public final class SchemaCheck {
  /** How every unknown-field problem starts. */
  public static final String UNKNOWN_FIELD = "unknown field";

  private final ObjectMapper mapper;

  public SchemaCheck(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  public List<Problem> check(JsonNode node, Class<?> type, String path) {
    List<Problem> problems = new ArrayList<>();
    walk(node, mapper.constructType(type), path, problems);
    return problems;
  }

  /**
   * Whether the problem is an unknown field. Those do not stop binding (the field is dropped, as
   * the API server prunes it), so the rules still run and every problem is reported at once.
   */
  public static boolean isUnknownField(Problem p) {
    return p.message().startsWith(UNKNOWN_FIELD);
  }

  private void walk(JsonNode node, JavaType type, String path, List<Problem> out) {
    if (node == null || node.isNull()) {
      return;
    }
    Class<?> raw = type.getRawClass();
    if (raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
      return;
    }
    if (raw == String.class) {
      if (!node.isTextual()) {
        out.add(Problem.error(path, "must be a string" + (node.isValueNode() ? " (quote it: \"" + Echo.value(node.asText()) + "\")" : "")));
      }
    } else if (raw == Integer.class || raw == int.class || raw == Long.class || raw == long.class) {
      boolean isInt = raw == Integer.class || raw == int.class;
      if (!node.isIntegralNumber()) {
        out.add(Problem.error(path, "must be an integer" + found(node)));
      } else if (isInt ? !node.canConvertToInt() : !node.canConvertToLong()) {
        out.add(Problem.error(path, "must be an integer from " + (isInt ? Integer.MIN_VALUE : Long.MIN_VALUE)
            + " to " + (isInt ? Integer.MAX_VALUE : Long.MAX_VALUE)));
      }
    } else if (raw == Double.class || raw == double.class || raw == Float.class || raw == float.class) {
      if (!node.isNumber()) {
        out.add(Problem.error(path, "must be a number" + found(node)));
      }
    } else if (raw == Boolean.class || raw == boolean.class) {
      if (!node.isBoolean()) {
        out.add(Problem.error(path, "must be true or false" + found(node)));
      }
    } else if (type.isCollectionLikeType()) {
      if (!node.isArray()) {
        out.add(Problem.error(path, "must be a list"));
        return;
      }
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), type.getContentType(), FieldPath.index(path, i), out);
      }
    } else if (type.isMapLikeType()) {
      if (!node.isObject()) {
        out.add(Problem.error(path, "must be a map"));
        return;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        walk(e.getValue(), type.getContentType(), FieldPath.field(path, e.getKey()), out);
      }
    } else if (raw.getPackageName().startsWith("dev.srt.operator.api")) {
      if (!node.isObject()) {
        out.add(Problem.error(path, "must be a map of fields"));
        return;
      }
      Map<String, JavaType> known = properties(type);
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String child = FieldPath.field(path, e.getKey());
        JavaType fieldType = known.get(e.getKey());
        if (fieldType == null) {
          out.add(Problem.error(child, UNKNOWN_FIELD + "; known fields: " + String.join(", ", known.keySet())));
        } else {
          walk(e.getValue(), fieldType, child, out);
        }
      }
    }
  }

  private Map<String, JavaType> properties(JavaType type) {
    BeanDescription bean = mapper.getDeserializationConfig().introspect(type);
    Map<String, JavaType> props = new TreeMap<>();
    for (BeanPropertyDefinition p : bean.findProperties()) {
      if (p.hasField() || p.hasSetter() || p.hasConstructorParameter()) {
        props.put(p.getName(), p.getPrimaryType());
      }
    }
    return props;
  }

  /** {@code , not "abc"}: the value found, escaped and cut, where it is one (a map or list is named as such). */
  private static String found(JsonNode node) {
    if (node.isObject()) {
      return ", not a map";
    }
    if (node.isArray()) {
      return ", not a list";
    }
    String text = node.asText();
    return ", not " + (node.isTextual() ? "\"" + Echo.value(text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\""
        : Echo.value(text.length() > 40 ? text.substring(0, 40) + "..." : text));
  }
}
