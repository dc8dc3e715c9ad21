package dev.srt.operator.host;

import java.util.List;

/**
 * What one poll saw of one run.
 *
 * @param events complete events.jsonl lines read since the offset, in file order
 * @param nextOffset the offset to pass next time (and to persist): never inside a line
 * @param moreEventsPending the per-poll read limit was reached; poll again soon to catch up
 * @param eventsRestarted events.jsonl was smaller than the offset and was read from the start
 * @param skippedLines lines that were not valid events (logged as warnings)
 */
public record RunObservation(
    JobStatus job,
    List<RunEvent> events,
    long nextOffset,
    boolean moreEventsPending,
    boolean eventsRestarted,
    int skippedLines) {

  public RunObservation {
    events = List.copyOf(events);
  }
}
