package dev.srt.operator.reconcile;

/** The reasons of the Kubernetes Events the operator emits. */
public enum EventReason {
  Submitted(false),
  WorkersReady(false),
  RouterReady(false),
  Succeeded(false),
  Failed(true),
  Cancelled(false),
  SpecInvalid(true),
  ClusterUnreachable(true),
  ClusterReachable(false);

  private final boolean warning;

  EventReason(boolean warning) {
    this.warning = warning;
  }

  public String type() {
    return warning ? "Warning" : "Normal";
  }
}
