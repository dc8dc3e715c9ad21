package dev.srt.operator.run;

import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.results.RunResults;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything the polls of one run have brought: its events so far (from the start of events.jsonl,
 * which polls read in slices), the offset to read on from, and its job's last state. Drivers of
 * {@link RunTracker} keep one per run and turn it into a {@link RunView}. Not thread-safe.
 */
public final class EventHistory {
  private final List<RunEvent> events = new ArrayList<>();
  private long offset;
  private boolean caughtUp = true;
  private JobStatus job;
  private RunResults results;
  private boolean polled;

  /** The next poll of this run. */
  public ActiveRun next(RunRef run, String jobId) {
    return new ActiveRun(run, jobId, offset);
  }

  /**
   * Adds what one poll saw; returns whether it was news (new events, another job state, or the
   * first poll).
   */
  public boolean add(RunObservation o) {
    boolean news = !polled || !o.events().isEmpty() || !o.job().equals(job) || o.eventsRestarted();
    if (o.eventsRestarted()) {
      // events.jsonl was replaced: what was read of the old one no longer counts
      events.clear();
    }
    events.addAll(o.events());
    offset = o.nextOffset();
    caughtUp = !o.moreEventsPending();
    job = o.job();
    polled = true;
    return news;
  }

  /** The run's results, once read. */
  public void results(RunResults read) {
    results = read;
  }

  public boolean polled() {
    return polled;
  }

  public boolean caughtUp() {
    return caughtUp;
  }

  public List<RunEvent> events() {
    return List.copyOf(events);
  }

  public RunView view() {
    return new RunView(events, caughtUp, job, results);
  }
}
