package dev.srt.operator.reconcile;

import dev.srt.operator.host.HostException;

/**
 * A GpuCluster's SSH Secret cannot be used: it does not exist, or lacks the key it is referred to
 * by. Its {@link #reason()} becomes the clusters' and comparisons' condition reason; the message
 * names the Secret and key, never their content.
 */
final class ClusterSecretException extends HostException {
  private static final long serialVersionUID = 1L;

  static final String NOT_FOUND = "SecretNotFound";
  static final String KEY_MISSING = "SecretKeyMissing";

  private final String reason;

  ClusterSecretException(String reason, String message) {
    super(Kind.AUTH, message);
    this.reason = reason;
  }

  String reason() {
    return reason;
  }
}
