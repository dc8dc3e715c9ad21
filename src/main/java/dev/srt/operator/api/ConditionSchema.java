package dev.srt.operator.api;


/**
 * Schema-only twin of the Kubernetes {@code Condition} (status.conditions items): the generated
 * CRD takes its field descriptions from here, so every field of the API is documented. Never
 * instantiated; the status classes keep using {@link io.fabric8.kubernetes.api.model.Condition}.
 */
public final class ConditionSchema {
  /** Kind of condition, e.g. Ready or Reachable. Unique within the list. */
  public String type;

  /** True, False or Unknown. */
  public String status;

  /** Why the condition last changed, in CamelCase (e.g. SpecInvalid, ConnectFailed). */
  public String reason;

  /** Human-readable details of the last change. */
  public String message;

  /** When status last changed (RFC 3339). */
  public String lastTransitionTime;

  /** The metadata.generation the condition was set for. */
  public Long observedGeneration;

  private ConditionSchema() {}
}
