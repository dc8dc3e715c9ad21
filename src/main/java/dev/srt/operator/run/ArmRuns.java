package dev.srt.operator.run;

import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.host.ExecResult;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.Summaries;
import dev.srt.operator.verdict.VerdictSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An arm's finished runs, as the CLI and the operator keep them: each run that succeeded or failed
 * becomes an {@link ArmRun} (its results, not its endpoints), the arm's summary is recomputed, and
 * the comparison's report (summaries and verdicts) is made from them.
 */
public final class ArmRuns {
  /** A finished run's message is cut to this length (the status must stay small with many runs). */
  static final int MAX_MESSAGE = 300;

  private ArmRuns() {}

  /**
   * Whether the arm holds a run on the host: one in flight, or one whose id is recorded and that
   * may already be submitted (a restart between recording and submitting). Such a run is watched,
   * cancelled when it must stop, and keeps the comparison's turn on a shared host.
   */
  public static boolean holdsHost(ArmStatus a) {
    return a.runId != null && (a.phase().inFlight() || a.phase() == ArmPhase.Pending);
  }

  /** Whether a run in {@code phase} counts as a finished repetition (a cancelled one runs again). */
  public static boolean counts(ArmPhase phase) {
    return phase == ArmPhase.Succeeded || phase == ArmPhase.Failed;
  }

  /** The finished run an arm's status describes. */
  public static ArmRun of(ArmStatus s) {
    ArmRun r = new ArmRun();
    r.runId = s.runId;
    r.repetition = s.repetition == null ? 1 : s.repetition;
    r.phase = s.phase;
    r.jobId = s.jobId;
    r.runDir = s.runDir;
    r.startedAt = s.startedAt;
    r.finishedAt = s.finishedAt;
    r.message = s.message == null ? null : ExecResult.abbreviate(s.message, MAX_MESSAGE);
    r.results = s.phase() == ArmPhase.Succeeded ? s.results : null;
    r.levels = s.levels;
    r.facts = s.facts;
    return r;
  }

  /**
   * Adds the run {@code s} describes to its {@code runs} (once) when it succeeded or failed, and
   * sums them up again. Returns whether it was added.
   */
  public static boolean record(ArmStatus s) {
    if (!counts(s.phase()) || s.runId == null) {
      return false;
    }
    if (s.runs == null) {
      s.runs = new ArrayList<>();
    }
    if (s.runs.stream().anyMatch(r -> s.runId.equals(r.runId))) {
      return false;
    }
    s.runs.add(of(s));
    s.summary = Summaries.of(s.runs);
    return true;
  }

  /** What an arm keeps from one run to the next: its finished runs and their summary. */
  public static void carry(ArmStatus from, ArmStatus to) {
    to.repetition = from.repetition;
    to.runs = from.runs == null ? new ArrayList<>() : new ArrayList<>(from.runs);
    to.summary = from.summary;
  }

  /** An arm's finished runs: its recorded ones, and its current run once that finished, if not recorded yet. */
  public static List<ArmRun> all(ArmStatus s) {
    if (s == null) {
      return List.of();
    }
    List<ArmRun> out = new ArrayList<>(s.runs == null ? List.of() : s.runs);
    if (counts(s.phase()) && (s.runId == null || out.stream().noneMatch(r -> s.runId.equals(r.runId)))) {
      out.add(of(s));
    }
    return out;
  }

  /** Finished runs of an arm (0 for none). */
  public static int finished(ArmStatus s) {
    return all(s).size();
  }

  /** The report of the arms' finished runs, in {@code arms} order. */
  public static ComparisonReport report(String comparison, RouterComparisonSpec spec, List<String> arms,
      Map<String, List<ArmRun>> runs) {
    Map<String, List<ArmRun>> ordered = new LinkedHashMap<>();
    arms.forEach(a -> ordered.put(a, runs.getOrDefault(a, List.of())));
    return ComparisonReport.of(comparison, ordered, VerdictSettings.of(spec));
  }

  /** {@code spec.execution.baseline}, or the first arm. */
  public static String baseline(RouterComparisonSpec spec) {
    return VerdictSettings.baseline(spec);
  }
}
