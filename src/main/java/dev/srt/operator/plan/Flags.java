package dev.srt.operator.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.srt.operator.base.Mappers;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a flag map into argv words, in key order (the API server does not keep map order, so
 * sorting is what makes the CLI and the operator render the same bytes; keys written with '_' are
 * rendered with '-'): {@code true -> --k};
 * {@code false -> omitted}; a list -> {@code --k v1 v2}; a map -> {@code --k <compact JSON>};
 * anything else -> {@code --k value}.
 */
public final class Flags {
  private Flags() {}

  public static List<String> render(Map<String, Object> flags) {
    return render(flags, Set.of());
  }

  /** As {@link #render(Map)}, leaving out the keys (compared with '_' as '-') in {@code skip}. */
  public static List<String> render(Map<String, Object> flags, Set<String> skip) {
    List<String> out = new ArrayList<>();
    if (flags == null) {
      return out;
    }
    for (Map.Entry<String, Object> e : new TreeMap<>(flags).entrySet()) {
      if (skip.contains(normalize(e.getKey()))) {
        continue;
      }
      Object v = e.getValue();
      // The programs spell their flags with '-': a YAML key written with '_' means the same flag.
      String flag = "--" + normalize(e.getKey());
      if (v instanceof Boolean b) {
        if (b) {
          out.add(flag);
        }
      } else if (v instanceof List<?> list) {
        out.add(flag);
        list.forEach(item -> out.add(scalar(item)));
      } else if (v != null) {
        out.add(flag);
        out.add(scalar(v));
      }
    }
    return out;
  }

  /** Whether {@code key} (or its '_' spelling) is present. */
  public static boolean has(Map<String, Object> flags, String key) {
    return flags != null && flags.keySet().stream().anyMatch(k -> normalize(k).equals(key));
  }

  /** The value of {@code key} (or its '_' spelling) as text, or null. */
  public static String get(Map<String, Object> flags, String key) {
    if (flags == null) {
      return null;
    }
    return flags.entrySet().stream().filter(e -> normalize(e.getKey()).equals(key))
        .map(e -> scalar(e.getValue())).findFirst().orElse(null);
  }

  public static String normalize(String key) {
    return key.replace('_', '-');
  }

  static String scalar(Object v) {
    if (v instanceof Map<?, ?> || v instanceof List<?>) {
      try {
        return Mappers.json().copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true).writeValueAsString(v);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("cannot render " + v, e);
      }
    }
    if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) {
      return new BigDecimal(v.toString()).stripTrailingZeros().toPlainString();
    }
    return String.valueOf(v);
  }
}
