package dev.srt.operator.reconcile;

/** The reasons of the Kubernetes Events the operator emits on a RouterComparison (docs/operator.md#events). */
public enum EventReason {
  Submitted(false),
  WorkersReady(false),
  RouterReady(false),
  Succeeded(false),
  Failed(true),
  Cancelled(false),
  Complete(false),
  SpecInvalid(true),
  SecretEnvMissing(true),
  ClusterUnreachable(true),
  FactsDiffer(true),
  ReconcileFailed(true);

  private final boolean warning;

  EventReason(boolean warning) {
    this.warning = warning;
  }

  public String type() {
    return warning ? "Warning" : "Normal";
  }
}
