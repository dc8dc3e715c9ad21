package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * The role of a worker of a prefill/decode topology: its SGLang {@code --disaggregation-mode}, the
 * component its Dynamo registration lands in, and how readiness counts it. Aggregated workers have
 * none.
 */
public enum WorkerRole {
  PREFILL,
  DECODE;

  @JsonValue
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
