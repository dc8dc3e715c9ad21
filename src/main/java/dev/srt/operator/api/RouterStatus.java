package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class RouterStatus {
  /** Base URL of the router's OpenAI-compatible API. */
  public String url;

  /** Whether the router passed its readiness gate (only counted after every worker is healthy). */
  public boolean ready;

  /** When ready last changed. */
  public String since;
}
