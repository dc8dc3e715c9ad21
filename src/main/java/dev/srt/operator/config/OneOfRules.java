package dev.srt.operator.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.srt.operator.api.OneOf;
import dev.srt.operator.api.Vocabulary;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every field that declares a closed set ({@link OneOf}) holds one of its values, wherever it is
 * in the object: {@code spec.container.runtime: must be none, pyxis or docker}. The CRD schema's
 * {@code enum} says the same to the API server; this says it where no API server checks (the CLI,
 * a mock API server), in the same words, from the same enum.
 */
public final class OneOfRules {
  private OneOfRules() {}

  /** Problems of {@code object} (an api object, e.g. a spec) and everything below it, under {@code path}. */
  public static List<Problem> check(Object object, String path) {
    List<Problem> out = new ArrayList<>();
    walk(object, path, out);
    return out;
  }

  private static void walk(Object value, String path, List<Problem> out) {
    if (value == null) {
      return;
    }
    if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        walk(list.get(i), FieldPath.index(path, i), out);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> walk(v, FieldPath.field(path, String.valueOf(k)), out));
      return;
    }
    if (!value.getClass().getPackageName().equals(OneOf.class.getPackageName())) {
      return;
    }
    for (Field f : value.getClass().getFields()) {
      if (Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      Object v;
      try {
        v = f.get(value);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
      String child = FieldPath.field(path, property(f));
      OneOf oneOf = f.getAnnotation(OneOf.class);
      if (oneOf == null) {
        walk(v, child, out);
      } else if (v instanceof String s) {
        closed(oneOf, s, child, out);
      } else if (v instanceof List<?> items) {
        for (int i = 0; i < items.size(); i++) {
          if (items.get(i) instanceof String s) {
            closed(oneOf, s, FieldPath.index(child, i), out);
          }
        }
      }
    }
  }

  private static void closed(OneOf oneOf, String value, String path, List<Problem> out) {
    if (!Vocabulary.values(oneOf.value()).contains(value)) {
      out.add(Problem.error(path, "must be " + Vocabulary.sentence(oneOf.value()) + ", not " + Echo.value(value)));
    }
  }

  private static String property(Field f) {
    JsonProperty json = f.getAnnotation(JsonProperty.class);
    return json != null && !json.value().isEmpty() ? json.value() : f.getName();
  }
}
