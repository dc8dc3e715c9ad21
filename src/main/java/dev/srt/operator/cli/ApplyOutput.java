package dev.srt.operator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.Submission;
import dev.srt.operator.run.ArmPhase;
import java.io.PrintStream;
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

  /** A line of its own, after the live line if one is open. */
  synchronized void println(String line) {
    closeLine();
    out.println(line);
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
    String line = pad(run.ref.arm()) + "  " + state(run.status);
    if (tty) {
      out.print("\r\033[K" + line + "  " + duration(run.elapsed(clock)));
      out.flush();
      lineOpen = true;
    } else if (!line.equals(lastLine)) {
      out.println(line + "  " + duration(run.elapsed(clock)));
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
    return String.format("%-12s  workers %-3s  %-16s", phase, workers, router);
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

  /** The summary table, then one line per arm that did not succeed, then the total. */
  void summary(List<String> arms, Map<String, ArmRunner.Run> runs, Duration total) {
    closeLine();
    boolean results = runs.values().stream().anyMatch(r -> r.status != null && r.status.results != null && !r.status.results.isEmpty());
    List<List<String>> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("ARM", "PHASE", "WORKERS", "ROUTER", "DURATION"));
    if (results) {
      // The engines' prefix-cache hit rate and the per-worker request spread are router-independent:
      // they show what the routing decisions did, next to what the client measured.
      header.addAll(List.of("REQ/S", "MEAN TTFT", "P99 TTFT", "CACHE HIT", "REQS MAX/MIN"));
    }
    header.add("RUN DIR");
    rows.add(header);
    List<String> problems = new ArrayList<>();
    long succeeded = 0;
    for (String arm : arms) {
      ArmRunner.Run run = runs.get(arm);
      ArmStatus s = run == null ? null : run.status;
      List<String> row = new ArrayList<>();
      row.add(arm);
      if (s == null) {
        row.addAll(List.of("NotRun", "-", "-", "-"));
      } else {
        row.add(s.phase);
        row.add(s.workers == null ? "-" : s.workers.ready + "/" + s.workers.total);
        row.add(s.router != null && s.router.ready ? "ready" : "not ready");
        row.add(duration(run.elapsed(clock)));
      }
      if (results) {
        Map<String, String> r = s == null || s.results == null ? Map.of() : s.results;
        row.add(number(r.get("request_throughput"), "%.1f", ""));
        row.add(number(r.get("mean_ttft_ms"), "%.0f", " ms"));
        row.add(number(r.get("p99_ttft_ms"), "%.0f", " ms"));
        row.add(percent(r.get("engine_cache_hit_rate")));
        row.add(number(r.get("worker_requests_max_over_min"), "%.2f", ""));
      }
      row.add(s == null || s.runDir == null ? "-" : s.runDir);
      rows.add(row);
      if (s != null && ArmPhase.of(s.phase) == ArmPhase.Succeeded) {
        succeeded++;
      } else {
        problems.add(arm + ": " + (s == null ? "not run" : s.phase.toLowerCase(Locale.ROOT)
            + (s.message == null || s.message.isEmpty() ? "" : ": " + s.message)));
      }
    }
    out.println();
    Table.print(rows, out);
    List<String> relative = relativeToFirst(arms, runs);
    if (!relative.isEmpty()) {
      out.println();
      relative.forEach(l -> out.println("  " + l));
    }
    if (!problems.isEmpty()) {
      out.println();
      problems.forEach(p -> out.println("  " + p));
    }
    out.println();
    out.println(succeeded + "/" + arms.size() + " arms succeeded in " + duration(total));
    out.flush();
  }

  /**
   * Each succeeded arm against the first succeeded one, in the numbers a router comparison is
   * read by: throughput, mean TTFT and the engines' cache hit rate (in points).
   */
  static List<String> relativeToFirst(List<String> arms, Map<String, ArmRunner.Run> runs) {
    List<String> done = arms.stream().filter(a -> runs.get(a) != null && runs.get(a).status != null
        && ArmPhase.of(runs.get(a).status.phase) == ArmPhase.Succeeded && runs.get(a).status.results != null
        && !runs.get(a).status.results.isEmpty()).toList();
    List<String> lines = new ArrayList<>();
    if (done.size() < 2) {
      return lines;
    }
    Map<String, String> base = runs.get(done.get(0)).status.results;
    for (String arm : done.subList(1, done.size())) {
      Map<String, String> r = runs.get(arm).status.results;
      List<String> parts = new ArrayList<>();
      change(parts, "req/s", base.get("request_throughput"), r.get("request_throughput"));
      change(parts, "mean TTFT", base.get("mean_ttft_ms"), r.get("mean_ttft_ms"));
      Double hitBase = parse(base.get("engine_cache_hit_rate"));
      Double hit = parse(r.get("engine_cache_hit_rate"));
      if (hitBase != null && hit != null) {
        parts.add(String.format(Locale.ROOT, "cache hit %+.1f pts", (hit - hitBase) * 100));
      }
      if (!parts.isEmpty()) {
        lines.add(arm + " vs " + done.get(0) + ": " + String.join(", ", parts));
      }
    }
    return lines;
  }

  private static void change(List<String> parts, String what, String base, String value) {
    Double b = parse(base);
    Double v = parse(value);
    if (b != null && v != null && b != 0) {
      parts.add(String.format(Locale.ROOT, "%s %+.1f%%", what, (v - b) / b * 100));
    }
  }

  private static Double parse(String value) {
    try {
      return value == null ? null : Double.valueOf(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String percent(String fraction) {
    try {
      return fraction == null ? "-" : String.format(Locale.ROOT, "%.1f%%", Double.parseDouble(fraction) * 100);
    } catch (NumberFormatException e) {
      return fraction;
    }
  }

  private static String number(String value, String format, String unit) {
    if (value == null) {
      return "-";
    }
    try {
      return String.format(Locale.ROOT, format, Double.parseDouble(value)) + unit;
    } catch (NumberFormatException e) {
      return value;
    }
  }
}
