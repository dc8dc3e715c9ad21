package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * A closed set of an api field ({@link OneOf}), whose constants are written in lower case with
 * dashes: {@code BENCH_SERVING} is {@code bench-serving}.
 */
public interface ApiEnum {
  String name();

  @JsonValue
  default String value() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
