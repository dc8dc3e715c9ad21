package dev.srt.operator.api;

/** Ready and planned workers of one role of a prefill/decode topology. */
public class RoleCount {
  /** Workers of this role whose /health answered 200. */
  public int ready;

  /** Workers of this role in the topology. */
  public int total;

  public RoleCount() {}

  public RoleCount(int ready, int total) {
    this.ready = ready;
    this.total = total;
  }
}
