package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * Schema-only twin of the Kubernetes {@code Condition} (status.conditions items): the generated
 * CRD takes its field descriptions from here, so every field of the API is documented. Never
 * instantiated; the status classes keep using {@link io.fabric8.kubernetes.api.model.Condition}.
 */
public final class ConditionSchema {
  @JsonPropertyDescription("Kind of condition, e.g. Ready or Reachable. Unique within the list.")
  public String type;

  @JsonPropertyDescription("True, False or Unknown.")
  public String status;

  @JsonPropertyDescription("Why the condition last changed, in CamelCase (e.g. SpecInvalid, ConnectFailed).")
  public String reason;

  @JsonPropertyDescription("Human-readable details of the last change.")
  public String message;

  @JsonPropertyDescription("When status last changed (RFC 3339).")
  public String lastTransitionTime;

  @JsonPropertyDescription("The metadata.generation the condition was set for.")
  public Long observedGeneration;

  private ConditionSchema() {}
}
