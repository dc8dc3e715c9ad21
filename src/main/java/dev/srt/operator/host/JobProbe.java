package dev.srt.operator.host;

import java.util.Map;

/**
 * How a backend finds out a job's state inside the {@link ClusterObserver}'s batched poll: a bash
 * function that reports named fields, and the parser of those fields.
 */
public interface JobProbe {

  /**
   * Bash source of a function {@code probe_job RUN_DIR RUN_ID JOB_ID} (JOB_ID may be empty) that
   * reports what it finds with {@code field NAME VALUE} and prints nothing else on stdout.
   */
  String bashFunction();

  /** The job's status from the fields {@code probe_job} reported (absent fields are missing keys). */
  JobStatus parse(Map<String, String> fields);
}
