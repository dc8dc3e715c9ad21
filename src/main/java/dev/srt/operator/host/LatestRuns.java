package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import dev.srt.operator.results.RunFileReader;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the newest runs of each arm of a comparison on a host: the run directories submitted last
 * (by their {@code record.json}'s {@code submittedAt}, or the time of that file or of the event log
 * of a run without one), with the job id its
 * submitter recorded ({@code job-id} on Slurm, the script's {@code pid} on a direct host). A run
 * still queued behind another counts. One command for all arms.
 */
public final class LatestRuns {
  /** The newest run of an arm, and the id its backend tracks it by. */
  public record Found(RunRef run, String jobId) {}

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private LatestRuns() {}

  /** Arms without any run are missing from the result. */
  public static Map<String, Found> find(Transport transport, String workDir, String namespace, String comparison, List<String> arms)
      throws HostException {
    Map<String, Found> latest = new LinkedHashMap<>();
    find(transport, workDir, namespace, comparison, arms, 1).forEach((arm, runs) -> latest.put(arm, runs.get(0)));
    return latest;
  }

  /**
   * The {@code perArm} newest runs of each arm, oldest first (runs of one comparison are submitted
   * one after another, so the record written last is the newest run). Arms without any run are missing.
   */
  public static Map<String, List<Found>> find(Transport transport, String workDir, String namespace, String comparison,
      List<String> arms, int perArm) throws HostException {
    return find(transport, arm -> parent(new RunRef(namespace, comparison, arm, "r00000000").runDir(workDir)), namespace, comparison,
        arms, perArm);
  }

  /** {@link #find(Transport, String, String, String, List, int)} where {@code backend} keeps its runs. */
  public static Map<String, List<Found>> find(Backend backend, String namespace, String comparison, List<String> arms, int perArm)
      throws HostException {
    return find(backend.transport(), arm -> parent(backend.runDirectory(new RunRef(namespace, comparison, arm, "r00000000")).path()),
        namespace, comparison, arms, perArm);
  }

  private record Dated(Found found, Instant at) {}

  /** The record's submittedAt, else the file time (seconds since the epoch, maybe with a fraction); the epoch when neither reads. */
  static Instant date(String submittedAt, String fileTime) {
    try {
      if (!submittedAt.isEmpty()) {
        return Instant.parse(submittedAt);
      }
    } catch (DateTimeParseException e) {
      // fall back to the file's time
    }
    try {
      BigDecimal seconds = new BigDecimal(fileTime);
      return Instant.ofEpochSecond(seconds.longValue(), seconds.remainder(BigDecimal.ONE).movePointRight(9).intValue());
    } catch (NumberFormatException | ArithmeticException e) {
      return Instant.EPOCH;
    }
  }

  private static String parent(String runDir) {
    return runDir.substring(0, runDir.lastIndexOf('/'));
  }

  private static Map<String, List<Found>> find(Transport transport, java.util.function.UnaryOperator<String> armDirs, String namespace,
      String comparison, List<String> arms, int perArm) throws HostException {
    // Every file is read by the run-file reader's rule: one run's FIFO or link cannot stall or
    // mislead the listing of the others (a run with a refused record is dated by its file's time).
    StringBuilder cmd = new StringBuilder(RunFileReader.BASH);
    for (String arm : arms) {
      // A run is known by its record.json (written at submission, so a run still queued counts) or,
      // for a run submitted without one, its event log. It is dated by the record's submittedAt,
      // else by that file's time: on a filesystem with coarse times (NFS), runs submitted in the
      // same second would otherwise come back in the order of their random ids. Builtins only,
      // but for a file time: hundreds of runs list in one quick command.
      cmd.append("for d in ").append(Shell.quote(armDirs.apply(arm))).append("/r*/; do\n")
          .append("""
                dir=${d%/}
                if [ -e "$dir/record.json" ] || [ -L "$dir/record.json" ]; then f="$dir/record.json"
                elif [ -e "$dir/events.jsonl" ] || [ -L "$dir/events.jsonl" ]; then f="$dir/events.jsonl"; else continue; fi
                job=
                if [ -e "$dir/job-id" ]; then srt_read_run_line "$dir/job-id" 64 || true; else srt_read_run_line "$dir/pid" 64 || true; fi
                job=$REPLY
                at=
                # submittedAt, written near the top of the record: its first 64 KiB, up to a NUL
                if [ "$f" = "$dir/record.json" ] && srt_open_run_file "$f"; then
                  rec=
                  IFS= read -r -d '' -n 65536 -u "$SRT_FD" rec 2>/dev/null || true
                  exec {SRT_FD}<&-
                  case $rec in *'"submittedAt"'*) at=${rec#*'"submittedAt"'}; at=${at#*:}; at=${at%%,*} at=${at%%$'\\n'*} at=${at%%'}'*} ;; esac
                fi
                at=${at//[^0-9TZ:.+-]/}
                mtime=
                # the time of the file itself (stat does not follow a link, nor open a FIFO)
                [ -n "$at" ] || mtime=$(stat -c %.9Y -- "$f" 2>/dev/null || true)
                # a stat without fractions of a second prints something else for %.9Y
                case $mtime in ''|.*|*[!0-9.]*) [ -n "$at" ] || mtime=$(stat -c %Y -- "$f" 2>/dev/null || true) ;; esac
              """)
          .append("  printf '%s\\t%s\\t%s\\t%s\\t%s\\n' ").append(Shell.quote(arm))
          .append(" \"${dir##*/}\" \"${job//[^0-9]/}\" \"$at\" \"${mtime//[^0-9.]/}\"\n")
          .append("done\n");
    }
    String out = transport.exec(cmd.toString(), TIMEOUT).orThrow("listing the runs of " + comparison + " on " + transport.describe()).stdout();
    Map<String, List<Dated>> dated = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      String[] f = line.split("\t", -1);
      if (f.length == 5 && arms.contains(f[0]) && f[1].matches("r[0-9a-f]{8}")) {
        dated.computeIfAbsent(f[0], k -> new ArrayList<>()).add(new Dated(
            new Found(new RunRef(namespace, comparison, f[0], f[1]), f[2].isEmpty() ? null : f[2]), date(f[3], f[4])));
      }
    }
    Map<String, List<Found>> found = new LinkedHashMap<>();
    for (String arm : arms) {
      List<Dated> runs = dated.getOrDefault(arm, List.of());
      if (runs.isEmpty()) {
        continue;
      }
      List<Found> newest = runs.stream()
          .sorted(Comparator.comparing(Dated::at).thenComparing(d -> d.found().run().runId()).reversed())
          .limit(perArm).map(Dated::found).collect(java.util.stream.Collectors.toCollection(ArrayList::new));
      Collections.reverse(newest);
      found.put(arm, newest);
    }
    return found;
  }
}
