package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class ObservabilitySpec {
  /**
   * Scrape router and worker /metrics before and after the benchmark, and add Dynamo
   * span/request-trace env to arms whose frontend is dynamo (never to others).
   */
  public Boolean enabled;

  public boolean enabledOrDefault() {
    return Boolean.TRUE.equals(enabled);
  }
}
