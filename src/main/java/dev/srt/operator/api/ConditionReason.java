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
  /** The ssh block names key or known_hosts files (the CLI's) where the operator needs Secrets. */
  SshSecretRequired,
  /** The Secret of the SSH key or known_hosts does not exist. */
  SecretNotFound,
  /** The Secret exists but has not the key named. */
  SecretKeyMissing,

  // PrerequisitesMet (RouterComparison and GpuCluster): what the host lacks, by kind
  /** The host is being checked. */
  Checking,
  /** Every requirement of the plans was found on the host. */
  Met,
  /** The check itself could not run. */
  CheckFailed,
  /** A program the runs start is not on the host's path. */
  ProgramMissing,
  /** A Python package or tool the runs import is not installed. */
  PythonPackageMissing,
  /** The Slurm partition does not exist. */
  SlurmPartitionMissing,
  /** Slurm refuses a job of the run's shape (account, partition, GPUs). */
  SlurmJobRejected,
  /** A node has fewer GPUs than the plan needs. */
  NotEnoughGpus,
  /** The GPUs are not of the type the cluster names. */
  GpuTypeMismatch,
  /** The model directory or its tokenizer.json or config.json is missing. */
  ModelMissing,
  /** The work directory has too little free disk. */
  NotEnoughDisk,
  /** A port of the run's port table is in use on the direct host. */
  PortsInUse,
  /** The container runtime the cluster names is missing. */
  ContainerRuntimeMissing,

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

  // FactsDiffer
  /** Runs that a verdict compares differ in a held-constant fact: those verdicts are not comparable. */
  HeldConstantFactsDiffer,
  /** A measured run that a verdict compares has no facts (no facts.json, or one that could not be read): those verdicts are not comparable. */
  FactsUnknown,
  /** A routing fact differs between the runs of one arm (two routers averaged as one): that arm's verdicts are not comparable. */
  RoutingFactsDifferWithinArm,
  /** Every held-constant fact that the compared runs recorded is equal (or no runs are compared yet). */
  FactsAgree,

  // InUse (GpuCluster)
  /** Runs of RouterComparisons still use the GpuCluster: its deletion waits for them. */
  RunsInFlight
}
