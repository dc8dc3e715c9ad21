package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkerCount {
  /** Workers ready. */
  public int ready;

  /** Workers in the topology. */
  public int total;

  /** The prefill workers among them (prefill/decode topology only). */
  public RoleCount prefill;

  /** The decode workers among them (prefill/decode topology only). */
  public RoleCount decode;

  public WorkerCount() {}

  public WorkerCount(int ready, int total) {
    this.ready = ready;
    this.total = total;
  }

  /** {@code 1/2}, or per role {@code prefill 1/1, decode 0/1}. */
  public String summary() {
    if (prefill == null || decode == null) {
      return ready + "/" + total;
    }
    return "prefill " + prefill.ready + "/" + prefill.total + ", decode " + decode.ready + "/" + decode.total;
  }
}
