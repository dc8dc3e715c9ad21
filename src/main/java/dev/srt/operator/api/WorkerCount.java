package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkerCount {
  @JsonPropertyDescription("Workers ready.")
  public int ready;

  @JsonPropertyDescription("Workers in the topology.")
  public int total;

  public WorkerCount() {}

  public WorkerCount(int ready, int total) {
    this.ready = ready;
    this.total = total;
  }
}
