package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.host.HostException;

/**
 * A GpuCluster's SSH Secret cannot be used: it does not exist, or lacks the key it is referred to
 * by. Its {@link #reason()} becomes the clusters' and comparisons' condition reason; the message
 * names the Secret and key, never their content.
 */
final class ClusterSecretException extends HostException {
  private static final long serialVersionUID = 1L;


  private final ConditionReason reason;

  ClusterSecretException(ConditionReason reason, String message) {
    super(Kind.AUTH, message);
    this.reason = reason;
  }

  ConditionReason reason() {
    return reason;
  }
}
