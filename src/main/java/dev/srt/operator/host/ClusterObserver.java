package dev.srt.operator.host;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Observes all active runs of one cluster with ONE remote command per poll, whatever their
 * number: each run's job status and the new bytes of its events.jsonl (at most
 * {@code maxEventBytesPerRun} per poll, so one chatty run cannot starve the others, and at most
 * {@link PollScript#MAX_TOTAL_EVENT_BYTES} for all runs together, so the answer stays within what a
 * transport takes).
 *
 * <p>Per-run trouble is part of the answer (a missing file reads as empty, an unknown job is
 * {@link JobState#NOT_FOUND}, an unparsable answer {@link JobState#UNKNOWN}, a run file that is not
 * a regular file {@link JobState#FAILED} naming it); only a failure of the host as a whole throws,
 * once for the whole poll. Run files are read by {@code results.RunFileReader}'s rule, so no file
 * of one run can block the poll of the others.
 *
 * <p>Keeps one {@link EventLogReader} per run between polls (for partial lines); a run absent
 * from a poll is forgotten. Thread-safe; polls of one observer run one at a time.
 */
public final class ClusterObserver {
  public static final int DEFAULT_MAX_EVENT_BYTES_PER_RUN = 256 * 1024;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private final Backend backend;
  private final int maxEventBytesPerRun;
  private final int maxEventBytes;
  private final Duration timeout;
  private final Map<RunRef, EventLogReader> readers = new HashMap<>();

  public ClusterObserver(Backend backend) {
    this(backend, DEFAULT_MAX_EVENT_BYTES_PER_RUN, DEFAULT_TIMEOUT);
  }

  public ClusterObserver(Backend backend, int maxEventBytesPerRun, Duration timeout) {
    this(backend, maxEventBytesPerRun, PollScript.MAX_TOTAL_EVENT_BYTES, timeout);
  }

  /** @param maxEventBytes event bytes of all runs together per poll */
  ClusterObserver(Backend backend, int maxEventBytesPerRun, int maxEventBytes, Duration timeout) {
    if (maxEventBytesPerRun < 1 || maxEventBytes < 1) {
      throw new IllegalArgumentException("maxEventBytesPerRun and maxEventBytes must be >= 1");
    }
    this.backend = backend;
    this.maxEventBytesPerRun = maxEventBytesPerRun;
    this.maxEventBytes = maxEventBytes;
    this.timeout = timeout;
  }

  /**
   * Observes {@code runs} (each at most once).
   *
   * @throws HostException if the host cannot be reached or its answer is cut short
   */
  public synchronized Map<RunRef, RunObservation> poll(Collection<ActiveRun> runs) throws HostException {
    Set<RunRef> polled = runs.stream().map(ActiveRun::run).collect(Collectors.toSet());
    if (polled.size() != runs.size()) {
      throw new IllegalArgumentException("a run appears more than once in one poll");
    }
    readers.keySet().retainAll(polled);
    if (runs.isEmpty()) {
      return Map.of();
    }
    List<ActiveRun> ordered = new ArrayList<>(runs);
    List<PollScript.Row> rows = new ArrayList<>();
    for (int i = 0; i < ordered.size(); i++) {
      ActiveRun active = ordered.get(i);
      long offset = active.eventsOffset() == ActiveRun.STATUS_ONLY ? -1 : reader(active).readOffset();
      rows.add(new PollScript.Row(i, backend.runDirectory(active.run()).path(), active.run().runId(),
          active.jobId(), offset));
    }
    ExecResult result = backend.transport().exec(
        PollScript.script(backend.jobProbe(), maxEventBytesPerRun, maxEventBytes), PollScript.input(rows), timeout);
    if (!result.succeeded()) {
      throw new HostException(HostException.Kind.COMMAND_FAILED, backend.transport().describe()
          + ": poll failed (exit " + result.exitCode() + "): " + ExecResult.abbreviate(result.stderr().strip(), 2000));
    }
    Map<Integer, Map<String, byte[]>> facts = PollScript.parse(result.stdout());
    Map<RunRef, RunObservation> observations = new LinkedHashMap<>();
    for (int i = 0; i < ordered.size(); i++) {
      observations.put(ordered.get(i).run(), observe(ordered.get(i), facts.getOrDefault(i, Map.of())));
    }
    return observations;
  }

  private EventLogReader reader(ActiveRun active) {
    EventLogReader reader = readers.get(active.run());
    // The caller's offset wins: it may have restarted, or rewound on purpose.
    if (reader == null || reader.resumeOffset() != active.eventsOffset()) {
      reader = new EventLogReader(active.run().toString(), active.eventsOffset());
      readers.put(active.run(), reader);
    }
    return reader;
  }

  private RunObservation observe(ActiveRun active, Map<String, byte[]> facts) {
    JobStatus job = status(facts);
    if (active.eventsOffset() == ActiveRun.STATUS_ONLY) {
      return new RunObservation(job, List.of(), ActiveRun.STATUS_ONLY, false, false, 0);
    }
    EventLogReader reader = readers.get(active.run());
    long size = number(facts.get("size"), -1);
    byte[] chunk = facts.get("events");
    if (size < 0 || chunk == null) {
      return new RunObservation(job, List.of(), reader.resumeOffset(), false, false, 0);
    }
    long start = number(facts.get("start"), reader.readOffset());
    EventLogReader.Read read = reader.accept(size, start, chunk);
    // Bytes the host saw and this poll did not bring: the per-run slice or the poll's total was full.
    boolean more = reader.readOffset() < size;
    return new RunObservation(job, read.events(), reader.resumeOffset(), more, read.restarted(), read.skippedLines());
  }

  private JobStatus status(Map<String, byte[]> facts) {
    Map<String, String> text = new HashMap<>();
    facts.forEach((name, value) -> {
      if (!name.equals("events")) {
        text.put(name, new String(value, StandardCharsets.UTF_8));
      }
    });
    // A run file that is not a regular file (a FIFO, a link, a directory) was made so by something
    // in the run: its pid, exit code or events cannot be trusted, and it would otherwise look
    // running, or not found, forever. The run counts as failed, with the file named, so that its
    // observer stops it (as a run that ended without its finished event) instead of waiting.
    String refused = text.remove("refused");
    JobStatus job;
    try {
      job = backend.jobProbe().parse(text);
    } catch (RuntimeException e) {
      job = new JobStatus(JobState.UNKNOWN, "cannot read the job state: " + e.getMessage(), null);
    }
    return refused == null ? job : new JobStatus(JobState.FAILED, refused, job.exitCode(), job.cancelRequested());
  }

  private static long number(byte[] value, long fallback) {
    if (value == null) {
      return fallback;
    }
    try {
      return Long.parseLong(new String(value, StandardCharsets.US_ASCII).strip());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }
}
