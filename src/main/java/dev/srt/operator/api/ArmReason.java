package dev.srt.operator.api;

/**
 * Why a run of an arm ended as it did, or why the arm is pending again, when srt-operator or the
 * host decided it ({@code status.arms[].reason}). A run that fails by itself says why in its message
 * (the reason its script reported, e.g. {@code GateTimeout: ...}).
 */
public enum ArmReason {
  /** The host cancelled the run's job (an outside scancel); srt-operator did not. */
  JobCancelled,
  /** The job reached its time limit. */
  JobTimeLimit,
  /** A node of the job failed. */
  NodeFailure,
  /** The job ran out of memory. */
  OutOfMemory,
  /** The job was preempted. */
  JobPreempted,
  /** The host no longer knows the job, and the run reported no outcome. */
  JobNotFound,
  /** The host refused the submission, or could not be reached to submit. */
  SubmitFailed,
  /** The arm was removed from the spec while its run was in flight: the run was cancelled. */
  ArmRemoved,
  /** The arm's effective spec changed: its run was cancelled and runs again. */
  SpecChanged,
  /** spec.suspend became true: the run was cancelled. */
  Suspended,
  /** A rerun was requested (annotation srt.dev/rerun): the run was cancelled and runs again. */
  RerunRequested
}
