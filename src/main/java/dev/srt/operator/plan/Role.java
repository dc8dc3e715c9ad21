package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a process is for; the Dynamo frontend and sgl-router are both {@code router}. */
public enum Role {
  BUILD,
  INFRA,
  WORKER,
  ENGINE,
  SIDECAR,
  ROUTER,
  BENCHMARK;

  @JsonValue
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
