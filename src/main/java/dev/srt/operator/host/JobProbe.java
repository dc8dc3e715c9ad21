package dev.srt.operator.host;

import java.util.Map;

/**
 * How a backend finds out its jobs' states inside the {@link ClusterObserver}'s batched poll: a
 * bash function that reports named fields for every run at once, and the parser of one run's
 * fields.
 */
public interface JobProbe {

  /**
   * Bash source of a function {@code probe_jobs} that reports, for every run number {@code n} of
   * the arrays {@code run_dir}, {@code run_id} and {@code job_id} (which may be empty), what it
   * finds with {@code field n NAME VALUE}, and prints nothing else on stdout. Its cost must not grow
   * by a process per run: builtins per run ({@code first_digits N FILE LIMIT} reads a number of run N's file by the
   * run-file reader's rule, {@code dev.srt.operator.results.RunFileReader}, and reports a refused file), and
   * any command once for all runs.
   */
  String bashFunction();

  /** The job's status from the fields {@code probe_jobs} reported for one run (absent fields are missing keys). */
  JobStatus parse(Map<String, String> fields);
}
