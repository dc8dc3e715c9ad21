package dev.srt.operator.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.generator.annotation.Default;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;

/**
 * The schema defaults of the api fields ({@code @Default}: the CRD's {@code default}, which the
 * API server writes into every object it stores or returns, also into objects created before the
 * default existed). A value equal to its default means the same as no value, everywhere: {@link
 * #cleared} is what hashes of a spec are taken over, so that defaulting never looks like a change
 * of the spec; {@link #filled} is what the API server hands the operator.
 */
public final class SchemaDefaults {
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private SchemaDefaults() {}

  /** A copy of {@code object} (an api object) in which every value equal to its field's default is unset. */
  public static <T> T cleared(T object) {
    T copy = copy(object);
    walk(copy, true);
    return copy;
  }

  /**
   * A copy of {@code object} with every unset field that has a default set to it, in the objects
   * that are present (as the API server defaults: a default applies inside an object that exists).
   */
  public static <T> T filled(T object) {
    T copy = copy(object);
    walk(copy, false);
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static <T> T copy(T object) {
    return object == null ? null : (T) JSON.convertValue(object, object.getClass());
  }

  private static void walk(Object value, boolean clear) {
    if (value instanceof List<?> list) {
      list.forEach(v -> walk(v, clear));
    } else if (value instanceof Map<?, ?> map) {
      map.values().forEach(v -> walk(v, clear));
    } else if (value != null && value.getClass().getPackageName().equals(SchemaDefaults.class.getPackageName())) {
      for (Field f : value.getClass().getFields()) {
        if (Modifier.isStatic(f.getModifiers()) || Modifier.isFinal(f.getModifiers())) {
          continue;
        }
        try {
          Object v = f.get(value);
          Default d = f.getAnnotation(Default.class);
          if (d == null) {
            walk(v, clear);
          } else if (clear && v != null && v.equals(parse(d.value(), f.getType()))) {
            f.set(value, null);
          } else if (!clear && v == null) {
            f.set(value, parse(d.value(), f.getType()));
          }
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
  }

  /** A default as a value of the field's type. */
  static Object parse(String text, Class<?> type) {
    if (type == Integer.class) {
      return Integer.valueOf(text);
    } else if (type == Long.class) {
      return Long.valueOf(text);
    } else if (type == Double.class) {
      return Double.valueOf(text);
    } else if (type == Boolean.class) {
      return Boolean.valueOf(text);
    } else if (type == String.class) {
      return text;
    }
    throw new IllegalArgumentException("no schema default for a field of type " + type.getName());
  }
}
