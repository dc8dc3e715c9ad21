package dev.srt.operator.host;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One line of events.jsonl.
 *
 * @param ts when the script wrote it; null if the line had no valid {@code ts}
 * @param event the event name ({@code run-started}, {@code phase}, ..., or one this code does not know yet)
 * @param fields the whole JSON object of the line, {@code ts} and {@code event} included
 */
public record RunEvent(Instant ts, String event, JsonNode fields) {
  public RunEvent {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(fields, "fields");
  }

  /** A text field, or null when absent. */
  public String text(String field) {
    JsonNode v = fields.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
