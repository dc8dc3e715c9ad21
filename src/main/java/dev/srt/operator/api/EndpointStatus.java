package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EndpointStatus {
  @JsonPropertyDescription("Worker process name, e.g. worker-0.")
  public String name;

  @JsonPropertyDescription("Base URL of the worker's HTTP server.")
  public String url;

  @JsonPropertyDescription("Whether the worker's /health answered 200.")
  public boolean ready;

  @JsonPropertyDescription("When ready last changed.")
  public String since;
}
