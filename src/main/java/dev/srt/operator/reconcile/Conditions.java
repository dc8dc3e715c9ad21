package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.config.Echo;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Kubernetes conditions: {@code lastTransitionTime} moves only when the status flips. */
public final class Conditions {
  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  private Conditions() {}

  public static void set(List<Condition> conditions, String type, String status, ConditionReason reason, String message,
      Long generation, Instant now) {
    Condition existing = find(conditions, type);
    if (existing == null) {
      existing = new Condition();
      existing.setType(type);
      conditions.add(existing);
    }
    if (!Objects.equals(existing.getStatus(), status) || existing.getLastTransitionTime() == null) {
      existing.setLastTransitionTime(now.toString());
    }
    existing.setStatus(status);
    existing.setReason(reason.name());
    // A message may carry what a run or a host said: escaped, so that kubectl shows it as one line of text.
    existing.setMessage(message == null ? "" : Echo.escape(message));
    existing.setObservedGeneration(generation);
  }

  public static Condition find(List<Condition> conditions, String type) {
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  public static boolean isTrue(List<Condition> conditions, String type) {
    Condition c = find(conditions, type);
    return c != null && TRUE.equals(c.getStatus());
  }
}
