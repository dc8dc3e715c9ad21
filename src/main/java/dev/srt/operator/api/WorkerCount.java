package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkerCount {
  /** Workers ready. */
  public int ready;

  /** Workers in the topology. */
  public int total;

  public WorkerCount() {}

  public WorkerCount(int ready, int total) {
    this.ready = ready;
    this.total = total;
  }
}
