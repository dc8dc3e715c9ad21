package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import dev.srt.operator.results.RunFileReader;
import java.time.Duration;

/**
 * A run's logs as {@code srt-operator logs} reads them: the names in its {@code logs/} directory, or
 * the end of one log. Anything in a run can write there, so only a regular file that is in the run
 * directory's own {@code logs/} and has no other name is read: the directories are entered by their
 * real paths, the log is opened first and checked by what was opened ({@code /proc/self/fd}), so
 * that no symlink ({@code logs/worker-0.log -> ../secret.env}), hard link or swapped directory
 * leads out of it, whatever the run changes in between. The log is opened by the run-file reader
 * ({@link RunFileReader}), so a FIFO swapped in cannot block it.
 */
public final class RunLogs {
  /** The most bytes of a log's end that {@link #tail} reads. */
  static final int TAIL_BYTES = 16 * 1024 * 1024;
  /** A log name as {@code --process} takes it. */
  public static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]*");

  /** Enters the run's logs/ by real paths and opens {@code logs/$2.log} on fd 3, checked by what was opened. */
  private static final String OPEN = RunFileReader.BASH + """
      set -u
      export LC_ALL=C
      parent=$(cd -P -- "$(dirname -- "$1")" 2>/dev/null && pwd -P) || { echo "the run directory is gone" >&2; exit 3; }
      run=$parent/$(basename -- "$1")
      if [ -L "$run" ] || ! cd -P -- "$run/logs" 2>/dev/null || [ "$(pwd -P)" != "$run/logs" ]; then
        echo "the run's logs/ is not a directory of the run directory" >&2; exit 3
      fi
      if [ -z "$2" ]; then ls -1A; exit 0; fi
      rc=0
      srt_open_run_file "./$2.log" "logs/$2.log" || rc=$?
      if [ "$rc" -eq 1 ]; then echo "no log $2.log in the run's logs/" >&2; exit 4; fi
      if [ "$rc" -eq 2 ]; then printf '%s\\n' "$SRT_WHY" >&2; exit 5; fi
      exec 3<&"$SRT_FD" {SRT_FD}<&-
      if [ "$(readlink "/proc/$$/fd/3")" != "$run/logs/$2.log" ] || [ ! -f "/proc/$$/fd/3" ] \\
          || [ "$(stat -L -c %h "/proc/$$/fd/3")" != 1 ]; then
        echo "logs/$2.log is not a regular file of the run directory (a link?): not read" >&2; exit 5
      fi
      """;
  /** The last lines of at most the log's last {@value #TAIL_BYTES} bytes: a huge log is not read through. */
  private static final String SCRIPT = OPEN + """
      tail -c %d <&3 | tail -n "$3"
      """.formatted(RunLogs.TAIL_BYTES);
  /**
   * One poll of {@code logs --follow}, on the log opened as above: whether the run has ended (its
   * {@code finished} event, or the {@code exit-code} its wrapper writes after the script ended by
   * any means, read only as regular files of the run), then the log's size, then its bytes after
   * offset {@code $3} up to that size (or its last {@code $4} lines when the offset is negative).
   * The end is asked before the size: what the run wrote before it ended is within the size.
   */
  private static final String FOLLOW = OPEN + """
      e=running
      if [ -f "$run/exit-code" ] && [ ! -L "$run/exit-code" ]; then e=ended
      elif srt_open_run_file "$run/events.jsonl"; then
        ! timeout 10 grep -qs '"event":"finished"' <&"$SRT_FD" || e=ended
        exec {SRT_FD}<&-
      fi
      s=$(stat -L -c %s "/proc/$$/fd/3") || exit 3
      printf '%s %s\\n' "$s" "$e"
      if [ "$3" -lt 0 ]; then head -c "$s" <&3 | tail -n "$4"; else head -c "$s" <&3 | tail -c +"$(($3 + 1))"; fi
      """;

  private RunLogs() {}

  /** The names in the run's {@code logs/}, one per line. */
  public static ExecResult list(Transport transport, String runDir, Duration timeout) throws HostException {
    return transport.exec(command(runDir, "", 0), timeout);
  }

  /** The last {@code lines} lines of {@code logs/<name>.log}. */
  public static ExecResult tail(Transport transport, String runDir, String name, int lines, Duration timeout) throws HostException {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a log name: " + name);
    }
    return transport.exec(command(runDir, name, Math.max(1, lines)), timeout);
  }

  /**
   * One poll of {@code logs --follow}: {@code SIZE running|ended} on the first line, then the bytes of
   * {@code logs/<name>.log} after {@code offset} (its last {@code lines} lines when the offset is
   * negative), read by the same rule as {@link #tail}.
   */
  public static ExecResult follow(Transport transport, String runDir, String name, long offset, int lines, Duration timeout)
      throws HostException {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a log name: " + name);
    }
    return transport.exec("bash --norc --noprofile -c " + Shell.quote(FOLLOW) + " srt-logs " + Shell.quote(runDir) + " "
        + Shell.quote(name) + " " + offset + " " + Math.max(1, lines), timeout);
  }

  static String command(String runDir, String name, int lines) {
    return "bash --norc --noprofile -c " + Shell.quote(SCRIPT) + " srt-logs " + Shell.quote(runDir) + " " + Shell.quote(name) + " " + lines;
  }
}
