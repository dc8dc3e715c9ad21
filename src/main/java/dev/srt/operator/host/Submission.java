package dev.srt.operator.host;

/**
 * The job a run was submitted as.
 *
 * @param jobId Slurm job id, or the process id of the detached script (direct)
 * @param alreadyExisted true when an earlier submission of the same run was found and reused
 */
public record Submission(String jobId, boolean alreadyExisted) {}
