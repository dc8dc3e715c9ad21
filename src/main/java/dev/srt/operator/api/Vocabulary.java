package dev.srt.operator.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The values of a closed set ({@link OneOf}) as they are written in YAML, and how a message lists them. */
public final class Vocabulary {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Vocabulary() {}

  /** Each constant of {@code set} as Jackson writes it, in declaration order. */
  public static List<String> values(Class<? extends Enum<?>> set) {
    List<String> out = new ArrayList<>();
    for (Enum<?> constant : set.getEnumConstants()) {
      out.add(JSON.convertValue(constant, String.class));
    }
    return List.copyOf(out);
  }

  /** {@code "none, pyxis or docker"}. */
  public static String sentence(Class<? extends Enum<?>> set) {
    List<String> v = values(set);
    return v.size() == 1 ? v.get(0) : String.join(", ", v.subList(0, v.size() - 1)) + " or " + v.get(v.size() - 1);
  }

  /** The constant of {@code set} written as {@code text}. */
  public static <E extends Enum<E>> Optional<E> of(Class<E> set, String text) {
    for (E constant : set.getEnumConstants()) {
      if (JSON.convertValue(constant, String.class).equals(text)) {
        return Optional.of(constant);
      }
    }
    return Optional.empty();
  }
}
