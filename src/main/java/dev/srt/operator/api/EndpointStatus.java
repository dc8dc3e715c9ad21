package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EndpointStatus {
  /** Worker process name, e.g. worker-0. */
  public String name;

  /** Base URL of the worker's HTTP server. */
  public String url;

  /** Whether the worker's /health answered 200. */
  public boolean ready;

  /** When ready last changed. */
  public String since;
}
