package dev.srt.operator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.Submission;
import dev.srt.operator.api.ArmPhase;
import java.io.PrintStream;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmSummary;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.verdict.Cells;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.Metric;
import dev.srt.operator.verdict.Verdicts;
import dev.srt.operator.api.Verdict;
import java.util.LinkedHashMap;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code apply} prints while arms run: one live line per arm (phase, workers ready n/m,
 * router ready, elapsed), rewritten in place on a terminal and printed again on every change
 * otherwise; with {@code --follow} every event line as it arrives; then a summary table.
 */
final class ApplyOutput implements ArmRunner.Listener {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  private final PrintStream out;
  private final boolean tty;
  private final boolean follow;
  private final int nameWidth;
  private final Clock clock;
  private String lastLine;
  private boolean lineOpen;

  ApplyOutput(PrintStream out, boolean tty, boolean follow, List<String> arms, Clock clock) {
    this.out = out;
    this.tty = tty;
    this.follow = follow;
    this.nameWidth = arms.stream().mapToInt(String::length).max().orElse(0);
    this.clock = clock;
  }

  /** A line of its own, after the live line if one is open; escaped, as it holds what runs and hosts said. */
  synchronized void println(String line) {
    closeLine();
    out.println(Echo.escape(line));
    out.flush();
  }

  @Override
  public synchronized void submitted(ArmRunner.Run run, Submission submission) {
    println(pad(run.ref.arm()) + "  " + (submission.alreadyExisted() ? "found" : "submitted") + " run " + run.ref.runId()
        + " as job " + submission.jobId() + " in " + run.status.runDir);
    live(run);
  }

  @Override
  public synchronized void events(ArmRunner.Run run, List<RunEvent> events) {
    if (!follow) {
      return;
    }
    for (RunEvent e : events) {
      println(pad(run.ref.arm()) + "  " + (e.ts() == null ? "--:--:--" : TIME.format(e.ts())) + "  " + e.event()
          + fields(e.fields()));
    }
  }

  @Override
  public synchronized void polled(ArmRunner.Run run) {
    live(run);
    if (run.phase().terminal()) {
      closeLine();
      if (run.phase() != ArmPhase.Succeeded && run.status.message != null) {
        println(pad(run.ref.arm()) + "  " + run.phase().name().toLowerCase(Locale.ROOT) + ": " + run.status.message);
      }
    }
  }

  @Override
  public synchronized void pollFailed(ArmRunner.Run run, HostException e) {
    println(pad(run.ref.arm()) + "  poll failed (retrying): " + e.getMessage());
  }

  @Override
  public synchronized void cancelling(ArmRunner.Run run) {
    println(pad(run.ref.arm()) + "  cancelling run " + run.ref.runId() + " (job " + run.jobId + ") ...");
  }

  @Override
  public synchronized void cancelled(ArmRunner.Run run, HostException error) {
    println(pad(run.ref.arm()) + "  " + (error == null
        ? "cancelled run " + run.ref.runId() + " (job " + run.jobId + ", " + run.status.runDir + ")"
        : "cancel of run " + run.ref.runId() + " (job " + run.jobId + ") failed: " + error.getMessage()));
  }

  private void live(ArmRunner.Run run) {
    String line = pad(run.ref.arm()) + (run.repetitions > 1 ? "  run " + run.repetition + "/" + run.repetitions : "") + "  "
        + state(run.status);
    if (tty) {
      out.print("\r\033[K" + Echo.escape(line) + "  " + duration(run.elapsed(clock)));
      out.flush();
      lineOpen = true;
    } else if (!line.equals(lastLine)) {
      out.println(Echo.escape(line) + "  " + duration(run.elapsed(clock)));
      out.flush();
    }
    lastLine = line;
  }

  private void closeLine() {
    if (lineOpen) {
      out.println();
      lineOpen = false;
    }
  }

  /**
   * {@code Starting    workers 1/2  router not ready} (per role: {@code workers prefill 1/1, decode
   * 0/1}): what the live line shows besides time; a run waiting for the host's lease says whom it
   * waits for.
   */
  static String state(ArmStatus s) {
    String phase = s.phase == null ? "Pending" : s.phase;
    if (ArmPhase.of(phase) == ArmPhase.Queued && s.message != null) {
      return String.format("%-12s  %s", phase, s.message);
    }
    String workers = s.workers == null ? "-" : s.workers.summary();
    String router = s.router != null && s.router.ready ? "router ready" : "router not ready";
    String line = String.format("%-12s  workers %-3s  %-16s", phase, workers, router);
    // A ladder's run says which level it measures: level 3/5 (c=32).
    return ArmPhase.of(phase) == ArmPhase.Benchmarking && s.level != null ? line + "  level " + Echo.escape(s.level) : line;
  }

  private String pad(String arm) {
    return String.format("%-" + Math.max(1, nameWidth) + "s", arm);
  }

  /** {@code  name=worker-0 role=worker}: the fields other than ts and event. */
  static String fields(JsonNode fields) {
    StringBuilder b = new StringBuilder();
    for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      if (f.getKey().equals("ts") || f.getKey().equals("event")) {
        continue;
      }
      b.append(' ').append(f.getKey()).append('=').append(f.getValue().isTextual() ? f.getValue().asText() : f.getValue().toString());
    }
    return b.toString();
  }

  /** {@code 850ms}, {@code 12.3s}, {@code 4m05s}. */
  static String duration(Duration d) {
    long ms = d.toMillis();
    if (ms < 1000) {
      return ms + "ms";
    }
    if (ms < 60_000) {
      return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
    long s = ms / 1000;
    return s >= 3600 ? String.format("%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60) : String.format("%dm%02ds", s / 60, s % 60);
  }

  /**
   * The summary table (per arm: its finished runs, the latest run's phase and run directory, each
   * headline metric as mean ± half its 95% interval over the succeeded runs), the verdicts against
   * the baseline, one line per run that did not succeed, then the total.
   *
   * @param latest each arm's latest run, finished or not (arms never started are absent)
   * @param repetitions the runs each arm was to make
   */
  void summary(List<String> arms, ComparisonReport report, Map<String, ArmStatus> latest, int repetitions, Duration total) {
    closeLine();
    boolean ladder = report.loadUnit != null;
    List<List<String>> rows = new ArrayList<>();
    rows.add(ladder ? List.of("ARM", "RUNS", "PHASE", "CAPACITY", "FAILED REQS", "RUN DIR")
        : List.of("ARM", "RUNS", "PHASE", "REQ/S", "MEAN TTFT", "P99 TTFT", "CACHE HIT", "FAILED REQS", "RUN DIR"));
    List<String> problems = new ArrayList<>();
    long done = 0;
    for (String arm : arms) {
      ComparisonReport.ArmReport a = report.arm(arm);
      List<ArmRun> runs = a == null ? List.of() : a.runs;
      ArmSummary summary = a == null ? null : a.summary;
      ArmStatus last = latest.get(arm);
      List<String> row = new ArrayList<>();
      row.add(arm);
      row.add((summary == null ? 0 : summary.n) + "/" + runs.size());
      row.add(last == null ? "NotRun" : last.phase);
      if (ladder) {
        row.add(a == null ? "-" : Cells.capacity(a.capacity));
      } else {
        row.add(Cells.meanPlusMinus(summary, Metric.REQUEST_THROUGHPUT));
        row.add(Cells.meanPlusMinus(summary, Metric.MEAN_TTFT_MS));
        row.add(Cells.meanPlusMinus(summary, Metric.P99_TTFT_MS));
        row.add(Cells.meanPlusMinus(summary, Metric.ENGINE_CACHE_HIT_RATE));
      }
      row.add(Cells.failedRatio(summary));
      row.add(last == null || last.runDir == null ? "-" : last.runDir);
      rows.add(row);
      if (runs.size() >= repetitions && runs.stream().allMatch(r -> r.phase() == ArmPhase.Succeeded)) {
        done++;
      }
      for (ArmRun r : runs) {
        if (r.phase() != ArmPhase.Succeeded) {
          problems.add(arm + " run " + r.runId + ": " + r.phase.toLowerCase(Locale.ROOT) + (r.message == null ? "" : ": " + r.message));
        }
      }
      if (last == null) {
        problems.add(arm + ": not run");
      } else if (!ArmRuns.counts(last.phase())) {
        problems.add(arm + " run " + last.runId + ": " + last.phase().name().toLowerCase(Locale.ROOT)
            + (last.message == null || last.message.isEmpty() ? "" : ": " + last.message));
      }
    }
    out.println();
    Table.print(rows, out);
    if (ladder) {
      out.println();
      Table.print(levelRows(arms, report), out);
    }
    if (!report.verdicts.isEmpty()) {
      out.println();
      out.println(Echo.escape("against " + report.baseline + " (difference of the means with its 95% interval; p-values Holm-adjusted):"));
      int width = report.verdicts.stream().mapToInt(v -> v.arm.length()).max().orElse(0);
      for (String arm : arms) {
        List<Verdict> mine = report.verdicts.stream().filter(v -> v.arm.equals(arm)).toList();
        if (mine.isEmpty()) {
          continue;
        }
        String name = "  " + String.format("%-" + width + "s", arm) + "  ";
        if (!ladder) {
          out.println(Echo.escape(name + String.join(" · ", mine.stream().map(Cells::verdictLine).toList())));
          continue;
        }
        // one line per level, under the arm's capacity verdict
        Map<Double, List<String>> byLevel = new LinkedHashMap<>();
        mine.stream().filter(v -> v.level != null).forEach(v -> byLevel.computeIfAbsent(v.level, l -> new ArrayList<>()).add(Cells.verdictLine(v)));
        mine.stream().filter(v -> v.level == null).forEach(v -> out.println(Echo.escape(name + Cells.verdictLine(v))));
        int levelWidth = byLevel.keySet().stream().mapToInt(l -> Cells.level(l, report.loadUnit).length()).max().orElse(0);
        byLevel.forEach((level, parts) -> out.println(Echo.escape(" ".repeat(name.length() + 2)
            + String.format("%-" + levelWidth + "s", Cells.level(level, report.loadUnit)) + "  " + String.join(" · ", parts))));
      }
      report.verdicts.stream().filter(v -> Verdicts.NOT_COMPARABLE.equals(v.verdict) && v.reason != null).map(v -> v.reason).distinct()
          .limit(3).forEach(reason -> out.println(Echo.escape("  not-comparable: " + reason)));
      if (repetitions < 2 && report.verdicts.stream().allMatch(v -> Verdicts.NOT_COMPARABLE.equals(v.verdict))) {
        out.println("  one run per arm gives differences, not verdicts: set spec.execution.repetitions (3 is a start)");
      }
    }
    if (!report.warnings.isEmpty()) {
      // what the verdicts and capacities above do not say (a goodput curve that recovers; with requireFacts: false,
      // the failed facts checks): the same lines as the report's warnings
      out.println();
      report.warnings.forEach(w -> out.println(Echo.escape("  warning: " + w)));
    }
    if (!problems.isEmpty()) {
      out.println();
      problems.forEach(p -> out.println(Echo.escape("  " + p)));
    }
    out.println();
    out.println(done + "/" + arms.size() + " arms succeeded in " + duration(total));
    if (ladder) {
      out.println(Echo.escape(capacityLine(arms, report)));
    }
    out.flush();
  }

  /** Per arm and level: the headline metrics' means with half their 95% intervals. */
  private static List<List<String>> levelRows(List<String> arms, ComparisonReport report) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("ARM", "LOAD", "REQ/S", "GOODPUT %", "SHED %", "P99 TTFT", "P99 ITL", "CACHE HIT"));
    for (String arm : arms) {
      ComparisonReport.ArmReport a = report.arm(arm);
      if (a == null) {
        continue;
      }
      for (ComparisonReport.LevelReport level : a.levels) {
        rows.add(List.of(arm, Cells.level(level.load, report.loadUnit), Cells.meanPlusMinus(level.summary, Metric.REQUEST_THROUGHPUT),
            Cells.meanPlusMinus(level.summary, Metric.GOODPUT_RATIO), Cells.meanPlusMinus(level.summary, Metric.SHED_RATIO),
            Cells.meanPlusMinus(level.summary, Metric.P99_TTFT_MS),
            Cells.meanPlusMinus(level.summary, Metric.P99_ITL_MS), Cells.meanPlusMinus(level.summary, Metric.ENGINE_CACHE_HIT_RATE)));
      }
    }
    return rows;
  }

  /**
   * {@code capacity at the SLO: cache-aware 15.7 [12.9, 18.6] concurrency · round-robin 10.9 [6.9, 14.8]
   * concurrency (worse, -31.0%)}: the answer a ladder is run for, last.
   */
  static String capacityLine(List<String> arms, ComparisonReport report) {
    List<String> parts = new ArrayList<>();
    for (String arm : arms) {
      ComparisonReport.ArmReport a = report.arm(arm);
      String part = arm + " " + (a == null ? "-" : Cells.capacity(a.capacity));
      Verdict v = report.verdicts.stream().filter(x -> x.arm.equals(arm) && Verdicts.CAPACITY.equals(x.metric)).findFirst().orElse(null);
      if (v != null) {
        part += " (" + v.verdict + (v.deltaPct == null ? "" : String.format(Locale.ROOT, ", %+.1f%%", v.deltaPct)) + ")";
      }
      parts.add(part);
    }
    return "capacity at the SLO: " + String.join(" · ", parts);
  }
}
