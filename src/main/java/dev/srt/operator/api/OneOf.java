package dev.srt.operator.api;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The field's value is one of a closed set, the constants of a Java enum as Jackson writes them
 * ({@link ApiEnum#value()}, or the enum's own {@code @JsonValue}). One declaration serves every
 * check: {@link CrdPostProcessor} writes the set as the schema's {@code enum} (what the API server
 * enforces and {@code kubectl explain} shows), and the validator ({@code config/OneOfRules})
 * reports a value outside it at its field path, in the same words ({@link Vocabulary}).
 *
 * <p>On a {@code String} field, or a list of strings (each item is one of the set).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface OneOf {
  Class<? extends Enum<?>> value();
}
