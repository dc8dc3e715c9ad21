package dev.srt.operator.host;

import dev.srt.operator.api.RunFacts;
import dev.srt.operator.api.SloSpec;
import dev.srt.operator.base.Shell;
import dev.srt.operator.plan.Ladder;
import dev.srt.operator.results.FactsFile;
import dev.srt.operator.results.ResultFile;
import dev.srt.operator.results.ResultsParser;
import dev.srt.operator.results.RunFileReader;
import dev.srt.operator.results.RunResults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one remote command that reads the {@link ResultFile}s of one results directory of a finished
 * run, and the parser of its output. Each file is cut at its limit (plus one byte, so that an
 * oversized one is recognised) on the host: bench_serving's file is reduced to its last non-blank
 * line, AIPerf's records are those beside the first export, the scrapes to their
 * {@code # srt-scrape} headers and the three SGLang counters the numbers need. Files over
 * {@link #MAX_SCAN_BYTES} are not even scanned; symbolic links and anything that is not a
 * regular file are not read (nor opened: the type is tested first, so a FIFO cannot block the command).
 *
 * <p>Framing as in {@link PollScript}: one line per file, {@code F <name> <base64>}
 * ({@code O <name>} for one too large to scan, {@code N <name> <kind>} for one that is not a
 * regular file), then {@code END}; file bytes only ever appear base64-encoded.
 *
 * <p>{@link #read(Backend, RunRef)}, {@link #read(Backend, RunRef, String, SloSpec)} and {@link #readLevels} are how the
 * rest of the project reads a finished run's numbers; they are computed from the fetched files by
 * {@link ResultsParser}.
 */
public final class ResultsFetch {
  static final String END = "END";
  static final String NO_RUN_DIR = "NO-RUN-DIR";
  static final String RUN_DIR_LINK = "RUN-DIR-LINK";
  /** A file larger than this is not read at all (scanning it could outlast the command's timeout). */
  static final long MAX_SCAN_BYTES = 256L * 1024 * 1024;
  /** {@link RunResults#RESULTS} or one level's directory in it. */
  private static final Pattern RESULTS_DIRECTORY = Pattern.compile("results(/level-[1-9][0-9]{0,2})?");
  /** What {@link #read} allows the one remote command. */
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  private ResultsFetch() {}

  /**
   * Reads the result files of a finished run's {@code results/} with one remote command (each file
   * size-limited on the host) and computes its numbers, without an SLO (no goodput). Anything wrong
   * with the files is a {@link RunResults#problem()}.
   *
   * @throws HostException only when the host cannot be asked (then try again later)
   */
  public static RunResults read(Backend backend, RunRef run) throws HostException {
    return read(backend, run, RunResults.RESULTS, null);
  }

  /**
   * Reads the result files of one results directory of a finished run (its {@code results/}, or
   * {@link Ladder#resultsDir} of one level of a ladder) with one remote command, each file
   * size-limited on the host, and computes their numbers: goodput and its ratio with {@code slo}.
   * The per-request data stays on the host; only the numbers come back. Anything wrong with the
   * files is a {@link RunResults#problem()}.
   *
   * @param resultsDir relative to the run directory: {@code results} or {@code results/level-<i>}
   * @param slo the comparison's spec.slo, or null
   * @throws HostException only when the host cannot be asked (then try again later)
   * @throws IllegalArgumentException for a results directory that is not one of those
   */
  public static RunResults read(Backend backend, RunRef run, String resultsDir, SloSpec slo) throws HostException {
    if (!RESULTS_DIRECTORY.matcher(resultsDir).matches()) {
      throw new IllegalArgumentException("not a results directory of a run: " + resultsDir);
    }
    return read(backend.transport(), backend.runDirectory(run).path(), resultsDir, slo, TIMEOUT);
  }

  /**
   * Reads the levels {@code finished} of a run's ladder, one remote command each, with the run's
   * facts (read beside the first). A level whose files give no numbers keeps why in its results.
   *
   * @throws HostException only when the host cannot be asked (then try again later)
   */
  public static RunResults readLevels(Backend backend, RunRef run, List<Ladder.Level> finished, SloSpec slo) throws HostException {
    List<RunResults.Level> levels = new ArrayList<>();
    RunFacts facts = null;
    for (Ladder.Level level : finished) {
      RunResults read = read(backend, run, level.resultsDir(), slo);
      facts = facts == null ? read.facts() : facts;
      levels.add(new RunResults.Level(level.index(), level.load(), read.withFacts(null)));
    }
    return new RunResults(Map.of(), null, facts, levels, null);
  }

  static String command(String runDir, String resultsDir) {
    return """
        set -u
        LC_ALL=C
        export LC_ALL
        frame() { printf 'F %%s ' "$1"; base64 -w0; printf '\\n'; }
        %s
        # usable FILE NAME: opens FILE on $SRT_FD by the run-file reader's rule if it is small enough to
        # scan, else says why (N: not a regular file, of a kind; O: too large). Everything after reads
        # the descriptor, never the name again.
        usable() {
          local rc=0
          srt_open_run_file "$1" || rc=$?
          if [ "$rc" -eq 2 ]; then printf 'N %%s %%s\\n' "$2" "$SRT_KIND"; fi
          [ "$rc" -eq 0 ] || return 1
          set -- "$1" "$2" $(stat -L -c '%%s %%h' -- "/dev/fd/$SRT_FD")
          # a second name (a hard link to secret.env) is refused as the reader refuses it for content
          if [ "${4:-}" != 1 ]; then printf 'N %%s hardlink\\n' "$2"; done_with; return 1; fi
          if [ "${3:-0}" -gt %d ]; then printf 'O %%s\\n' "$2"; done_with; return 1; fi
        }
        done_with() { exec {SRT_FD}<&-; }
        # scrape FILE NAME LIMIT: the scrape headers and the counters the numbers need
        scrape() {
          if usable "$1" "$2"; then
            grep -a -E '^(# srt-scrape |sglang:(prompt_tokens|cached_tokens|num_requests)_total[{[:space:]])' <&"$SRT_FD" \\
              | head -c "$3" | frame "$2"
            done_with
          fi
        }
        # the run directory and its results directory are entered only if they are not links
        if [ ! -L %s ] && cd -- %s 2>/dev/null; then
          if usable %s %s; then
            head -c %d <&"$SRT_FD" | frame %s
            done_with
          fi
          if [ ! -L %s ] && cd -- %s 2>/dev/null; then
            # AIPerf's files only without bench_serving's, as the numbers are: the output stays under the transport's limit
            if usable %s %s; then
              grep -a -v '^[[:space:]]*$' <&"$SRT_FD" | tail -n 1 | head -c %d | frame %s
              done_with
            elif [ ! -e %s ] && [ ! -L %s ]; then
              set -- %s
              if usable "$1" %s; then
                head -c %d <&"$SRT_FD" | frame %s
                done_with
                records="${1%%_aiperf.json}.jsonl"
                if usable "$records" %s; then
                  head -c %d <&"$SRT_FD" | frame %s
                  done_with
                fi
              fi
            fi
            scrape %s %s %d
            scrape %s %s %d
          fi
        elif [ -L %s ]; then
          printf '%%s\\n' %s
        else
          printf '%%s\\n' %s
        fi
        printf '%%s\\n' %s
        """.formatted(
            RunFileReader.BASH,
            MAX_SCAN_BYTES,
            Shell.quote(runDir), Shell.quote(runDir),
            Shell.quote(ResultFile.FACTS.path), ResultFile.FACTS.frame(), ResultFile.FACTS.maxBytes + 1,
            ResultFile.FACTS.frame(),
            Shell.quote(resultsDir), Shell.quote(resultsDir),
            Shell.quote(ResultFile.BENCH_SERVING.path), ResultFile.BENCH_SERVING.frame(),
            ResultFile.BENCH_SERVING.maxBytes + 1, ResultFile.BENCH_SERVING.frame(),
            Shell.quote(ResultFile.BENCH_SERVING.path), Shell.quote(ResultFile.BENCH_SERVING.path),
            ResultFile.AIPERF.path, // a glob, so unquoted: a constant
            ResultFile.AIPERF.frame(), ResultFile.AIPERF.maxBytes + 1, ResultFile.AIPERF.frame(),
            ResultFile.AIPERF_RECORDS.frame(), ResultFile.AIPERF_RECORDS.maxBytes + 1, ResultFile.AIPERF_RECORDS.frame(),
            Shell.quote(ResultFile.METRICS_BEFORE.path), ResultFile.METRICS_BEFORE.frame(), ResultFile.METRICS_BEFORE.maxBytes + 1,
            Shell.quote(ResultFile.METRICS_AFTER.path), ResultFile.METRICS_AFTER.frame(), ResultFile.METRICS_AFTER.maxBytes + 1,
            Shell.quote(runDir), RUN_DIR_LINK,
            NO_RUN_DIR, END);
  }

  /** Reads the result files of {@code resultsDir} (relative to {@code runDir}) and computes their numbers. */
  static RunResults read(Transport transport, String runDir, String resultsDir, SloSpec slo, Duration timeout) throws HostException {
    ExecResult result = transport.exec(command(runDir, resultsDir), timeout);
    if (!result.succeeded()) {
      throw new HostException(HostException.Kind.COMMAND_FAILED, transport.describe() + ": reading the result files of "
          + runDir + " failed (exit " + result.exitCode() + "): " + ExecResult.abbreviate(result.stderr().strip(), 2000));
    }
    Fetched fetched = fetched(result.stdout());
    if (fetched.noRunDir()) {
      return RunResults.none("the run directory " + runDir + " is gone");
    }
    if (fetched.runDirLink()) {
      return RunResults.none("the run directory " + runDir + " is a symbolic link: not read");
    }
    // The facts (in the run directory) are read beside the numbers, and neither spoils the other.
    // A facts.json that is a link, FIFO or directory is named as such, not as a run that wrote none.
    String factsKind = fetched.notRegular().get(ResultFile.FACTS);
    RunFacts facts = fetched.tooLarge().remove(ResultFile.FACTS)
        ? RunFacts.none(ResultFile.FACTS.path + " is larger than " + MAX_SCAN_BYTES / (1024 * 1024) + " MiB")
        : factsKind != null ? FactsFile.notRegular(factsKind) : FactsFile.parse(fetched.files().remove(ResultFile.FACTS));
    if (!fetched.tooLarge().isEmpty()) {
      ResultFile f = fetched.tooLarge().iterator().next();
      return RunResults.none(resultsDir + "/" + f.path + " is larger than " + MAX_SCAN_BYTES / (1024 * 1024) + " MiB").withFacts(facts);
    }
    return ResultsParser.parse(fetched.files(), slo, resultsDir).withFacts(facts);
  }

  /**
   * What the command printed: the files it read, those too large to read, those that are not
   * regular files (each with its kind: {@code link}, {@code fifo}, {@code directory}, {@code other};
   * only the facts tell it, a result file that is one reads as absent), or that the run directory is missing.
   */
  record Fetched(Map<ResultFile, byte[]> files, Set<ResultFile> tooLarge, Map<ResultFile, String> notRegular, boolean noRunDir,
      boolean runDirLink) {}

  /** Lines that are not frames are ignored (a chatty login shell). */
  static Fetched fetched(String output) throws HostException {
    Map<ResultFile, byte[]> files = new EnumMap<>(ResultFile.class);
    Set<ResultFile> tooLarge = EnumSet.noneOf(ResultFile.class);
    Map<ResultFile, String> notRegular = new EnumMap<>(ResultFile.class);
    boolean complete = false;
    boolean noRunDir = false;
    boolean runDirLink = false;
    for (String line : output.split("\n", -1)) {
      if (line.equals(END)) {
        complete = true;
        continue;
      }
      if (line.equals(NO_RUN_DIR)) {
        noRunDir = true;
        continue;
      }
      if (line.equals(RUN_DIR_LINK)) {
        runDirLink = true;
        continue;
      }
      String[] parts = line.split(" ", 3);
      ResultFile file = parts.length < 2 ? null : frame(parts[1]);
      if (file == null) {
        continue;
      }
      if (parts[0].equals("O")) {
        tooLarge.add(file);
      } else if (parts[0].equals("N")) {
        notRegular.put(file, parts.length == 3 ? parts[2].strip() : "other");
      } else if (parts[0].equals("F")) {
        try {
          files.put(file, Base64.getDecoder().decode(parts.length == 3 ? parts[2].strip() : ""));
        } catch (IllegalArgumentException e) {
          throw new HostException(HostException.Kind.IO, "the result files' output has a damaged frame " + file.frame());
        }
      }
    }
    if (!complete) {
      throw new HostException(HostException.Kind.IO, "the result files' output is incomplete (no " + END + " line)");
    }
    return new Fetched(files, tooLarge, notRegular, noRunDir, runDirLink);
  }

  private static ResultFile frame(String name) {
    for (ResultFile f : ResultFile.values()) {
      if (f.frame().equals(name)) {
        return f;
      }
    }
    return null;
  }
}
