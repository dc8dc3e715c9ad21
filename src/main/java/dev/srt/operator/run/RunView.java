package dev.srt.operator.run;

import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.results.RunResults;
import java.util.List;

/**
 * What the host has said of one run so far: every line of its events.jsonl in file order, its job's
 * last state, and once read, the results of its result files.
 *
 * @param caughtUp false while events.jsonl is still being read in slices: the job state may then
 *     be ahead of the events (a job that ended while its last events are unread), so it is not
 *     applied yet
 * @param job the job's last state; null before the first poll
 * @param results the result files' numbers, once a driver read them (after {@link RunTracker.Action#READ_RESULTS})
 */
public record RunView(List<RunEvent> events, boolean caughtUp, JobStatus job, RunResults results) {
  public static final RunView NOTHING_YET = new RunView(List.of(), true, null, null);

  public RunView {
    events = List.copyOf(events);
  }

  public RunView withResults(RunResults read) {
    return new RunView(events, caughtUp, job, read);
  }
}
