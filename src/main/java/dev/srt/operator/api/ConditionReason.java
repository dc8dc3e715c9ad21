package dev.srt.operator.api;

/**
 * Every reason a condition of a RouterComparison or a GpuCluster can carry (docs/operator.md,
 * "Conditions"). CamelCase, as Kubernetes asks of condition reasons.
 */
public enum ConditionReason {
  // SpecValid
  /** The spec passed validation. */
  Valid,
  /** The spec has errors; the message lists them with their field paths. */
  Invalid,

  // ClusterReachable (RouterComparison), Reachable (GpuCluster)
  /** The last poll or probe of the host answered. */
  Connected,
  /** No answer yet from the host. */
  Probing,
  /** The host could not be reached (refused, no route, dropped connection). */
  Unreachable,
  /** The host refused the key, or the key could not be used. */
  AuthFailed,
  /** The host's key is not the one in known_hosts. */
  HostKeyMismatch,
  /** A command on the host did not finish in time. */
  Timeout,
  /** A Slurm command on the login node failed. */
  SlurmUnavailable,
  /** A command on the host failed, or its answer was not understood. */
  HostError,
  /** The probe itself failed unexpectedly (a bug: see the operator's log). */
  ProbeError,
  /** The GpuCluster named by spec.clusterRef does not exist. */
  ClusterNotFound,
  /** The GpuCluster's spec has errors. */
  ClusterInvalid,
  /** The GpuCluster is being deleted: no new run starts on it. */
  ClusterDeleting,
  /** transport: local, refused by an operator started without --allow-local-transport. */
  LocalTransportNotAllowed,
  /** The Secret of the SSH key or known_hosts does not exist. */
  SecretNotFound,
  /** The Secret exists but has not the key named. */
  SecretKeyMissing,

  // Ready
  /** The current arm's workers are healthy and its router is ready. */
  ArmServing,
  /** The current arm is starting. */
  ArmStarting,
  /** No arm runs now. */
  NoArmRunning,
  /** spec.suspend is true. */
  Suspended,

  // Complete
  /** Every arm succeeded, every repetition. */
  AllArmsSucceeded,
  /** Every arm has finished and one of them failed. */
  ArmFailed,
  /** Arms have runs still to make. */
  ArmsRemaining,

  // Failed
  /** No arm has failed, or the comparison has not finished. */
  NoArmFailed,

  // Degraded
  /** Nothing is wrong. */
  AsExpected,
  /** The spec is invalid; nothing new is submitted. */
  SpecInvalid,
  /** A secret variable's Secret or key cannot be read; nothing is submitted. */
  SecretEnvMissing,
  /** The cluster cannot be reached while a run is in flight. */
  ClusterUnreachable,
  /** The comparison is being deleted and its runs cannot be cancelled yet. */
  CancelPending,
  /** A reconcile threw; the operator retries with backoff. */
  ReconcileError,

  // InUse (GpuCluster)
  /** Runs of RouterComparisons still use the GpuCluster: its deletion waits for them. */
  RunsInFlight
}
