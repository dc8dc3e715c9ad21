package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class RouterStatus {
  @JsonPropertyDescription("Base URL of the router's OpenAI-compatible API.")
  public String url;

  @JsonPropertyDescription("Whether the router passed its readiness gate (only counted after every worker is healthy).")
  public boolean ready;

  @JsonPropertyDescription("When ready last changed.")
  public String since;
}
