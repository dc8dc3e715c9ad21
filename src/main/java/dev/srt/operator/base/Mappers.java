package dev.srt.operator.base;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

/**
 * The one JSON and one YAML mapper configuration used across the project. Each is built on first
 * use only: a CLI command that reads YAML never pays for the JSON mapper, and the reverse.
 */
public final class Mappers {
  private Mappers() {}

  public static ObjectMapper json() {
    return Json.MAPPER;
  }

  public static ObjectMapper yaml() {
    return Yaml.MAPPER;
  }

  private static final class Json {
    static final ObjectMapper MAPPER = configure(new ObjectMapper());
  }

  private static final class Yaml {
    static final ObjectMapper MAPPER = configure(new ObjectMapper(
        new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES).enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)));
  }

  private static ObjectMapper configure(ObjectMapper m) {
    return m.findAndRegisterModules()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .setSerializationInclusion(JsonInclude.Include.NON_NULL);
  }
}
