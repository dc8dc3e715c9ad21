package dev.srt.operator.run;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.SubmittedFiles;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.results.RunResults;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The read-only driver of the run lifecycle, for {@code report} (and {@code status}): the newest
 * runs of each arm, read back from the host and replayed through {@link RunTracker} against their
 * own records ({@code plan.json}, {@code record.json}), never re-planned from today's spec. It acts
 * on nothing: a run the tracker would reap is left as it is.
 */
public final class PastRuns {
  /** Polls needed to read event logs the host hands out in slices. */
  private static final int MAX_POLLS = 64;

  /**
   * One run as the host has it.
   *
   * @param record what the run's record.json says it was submitted with; null for a run without one
   * @param repetition its place among the arm's runs read, from 1 (oldest first)
   * @param results what its result files gave (with the requests' latency distributions, which
   *     the status does not keep), or null when they were not read
   * @param replayed the record the run was replayed against (from its plan.json and record.json):
   *     what a driver that attaches to the run follows
   */
  public record PastRun(RunRef ref, int repetition, RecordFile record, ArmStatus status, RunResults results, RunRecord replayed) {
    /** Whether the run has not ended yet (queued, starting, measuring). */
    public boolean inFlight() {
      return !status.phase().terminal();
    }
  }

  private PastRuns() {}

  /** The {@code perArm} newest runs of each arm, oldest first; arms without a run are missing. */
  public static Map<String, List<PastRun>> read(RunHost host, String namespace, String comparison, List<String> arms, int perArm,
      Instant now) throws HostException {
    Map<String, List<LatestRuns.Found>> found = host.latestRuns(namespace, comparison, arms, perArm);
    List<RunRef> refs = found.values().stream().flatMap(List::stream).map(LatestRuns.Found::run).toList();
    Map<RunRef, SubmittedFiles> files = host.submitted(refs);
    Map<RunRef, RunRecord> records = new LinkedHashMap<>();
    Map<RunRef, RecordFile> recordFiles = new LinkedHashMap<>();
    Map<RunRef, EventHistory> histories = new LinkedHashMap<>();
    for (List<LatestRuns.Found> list : found.values()) {
      for (LatestRuns.Found f : list) {
        SubmittedFiles submitted = files.getOrDefault(f.run(), new SubmittedFiles(null, null));
        RecordFile recordFile = recordFile(submitted.record());
        recordFiles.put(f.run(), recordFile);
        records.put(f.run(), record(f, host.runDir(f.run()), submitted.plan(), recordFile));
        histories.put(f.run(), new EventHistory());
      }
    }
    for (int poll = 0; poll < MAX_POLLS && histories.values().stream().anyMatch(h -> !h.polled() || !h.caughtUp()); poll++) {
      List<dev.srt.operator.host.ActiveRun> active = new ArrayList<>();
      histories.forEach((ref, h) -> {
        if (!h.polled() || !h.caughtUp()) {
          active.add(h.next(ref, records.get(ref).jobId()));
        }
      });
      Map<RunRef, RunObservation> seen = host.poll(active);
      seen.forEach((ref, o) -> histories.get(ref).add(o));
    }
    Map<String, List<PastRun>> out = new LinkedHashMap<>();
    for (List<LatestRuns.Found> listed : found.values()) {
      // in submission order as the records say (file times can tie when runs are queued together)
      List<LatestRuns.Found> list = new ArrayList<>(listed);
      list.sort(java.util.Comparator.comparing((LatestRuns.Found f) -> records.get(f.run()).submittedAt()));
      int repetition = 0;
      for (LatestRuns.Found f : list) {
        RunRecord record = records.get(f.run());
        EventHistory history = histories.get(f.run());
        RunMemory memory = RunMemory.FRESH;
        RunTracker.Step step = RunTracker.step(record, history.view(), memory, now);
        RunResults results = null;
        while (step.actions().contains(RunTracker.Action.READ_RESULTS)) {
          try {
            results = host.results(f.run(), step.reading());
            history.results(results);
          } catch (HostException e) {
            memory = memory.resultReadFailed(e.getMessage());
          }
          step = RunTracker.step(record, history.view(), memory, now);
        }
        ArmStatus status = step.status();
        status.repetition = ++repetition;
        // a record or plan that the run made something else than a regular file is named, not taken for missing
        String refused = files.getOrDefault(f.run(), new SubmittedFiles(null, null)).refused();
        if (refused != null && (status.message == null || !status.message.contains(refused))) {
          status.message = status.message == null || status.message.isBlank() ? refused : status.message + "; " + refused;
        }
        if (recordFiles.get(f.run()) == null && !history.events().isEmpty() && history.events().get(0).ts() != null) {
          status.startedAt = history.events().get(0).ts().toString();
        }
        out.computeIfAbsent(f.run().arm(), k -> new ArrayList<>()).add(new PastRun(f.run(), repetition, recordFiles.get(f.run()), status,
            results, record));
      }
    }
    return out;
  }

  private static RecordFile recordFile(String json) {
    if (json == null) {
      return null;
    }
    try {
      return RecordFile.parse(json);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The run's record from what was submitted; a run without a readable plan.json (submitted by an
   * older srt-operator) is replayed without its planned endpoints and gates.
   */
  private static RunRecord record(LatestRuns.Found f, String runDir, String planJson, RecordFile file) {
    Instant submittedAt = file == null || file.submittedAt() == null ? Instant.EPOCH : Instant.parse(file.submittedAt());
    String scriptHash = file == null ? null : file.scriptHash();
    String specHash = file == null ? null : file.specHash();
    if (planJson != null) {
      try {
        RunPlan plan = Mappers.json().readValue(planJson, RunPlan.class);
        return RunRecord.of(plan, f.run().runId(), f.jobId(), runDir, scriptHash, specHash, submittedAt);
      } catch (com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
        // replayed without its plan, as below
      }
    }
    return new RunRecord(f.run().arm(), f.run().runId(), f.jobId(), runDir, scriptHash, specHash, submittedAt, List.of(), null,
        List.of());
  }
}
