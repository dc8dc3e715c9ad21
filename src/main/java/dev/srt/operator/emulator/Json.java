package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JSON for the emulated wire formats. A plain mapper rather than the project's {@code Mappers}:
 * the real servers write explicit {@code null}s ({@code "kv_events": null}, {@code
 * "finish_reason": null}) that the project mapper's NON_NULL setting would drop, and a mapper
 * without module scanning keeps each emulated process quick to start.
 */
public final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  public static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  public static JsonNode parse(byte[] bytes) {
    try {
      return bytes.length == 0 ? object() : MAPPER.readTree(bytes);
    } catch (IOException e) {
      throw new IllegalArgumentException("invalid JSON: " + e.getMessage(), e);
    }
  }

  public static JsonNode parse(String text) {
    return parse(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static ObjectMapper mapper() {
    return MAPPER;
  }
}
