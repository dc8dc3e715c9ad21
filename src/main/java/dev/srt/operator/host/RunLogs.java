package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import java.time.Duration;

/**
 * A run's logs as {@code srt-operator logs} reads them: the names in its {@code logs/} directory, or
 * the end of one log. Anything in a run can write there, so only a regular file that is in the run
 * directory's own {@code logs/} and has no other name is read: the directories are entered by their
 * real paths, the log is opened first and checked by what was opened ({@code /proc/self/fd}), so
 * that no symlink ({@code logs/worker-0.log -> ../secret.env}), hard link or swapped directory
 * leads out of it, whatever the run changes in between.
 */
public final class RunLogs {
  /** A log name as {@code --process} takes it. */
  public static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]*");

  private static final String SCRIPT = """
      set -u
      export LC_ALL=C
      parent=$(cd -P -- "$(dirname -- "$1")" 2>/dev/null && pwd -P) || { echo "the run directory is gone" >&2; exit 3; }
      run=$parent/$(basename -- "$1")
      if [ -L "$run" ] || ! cd -P -- "$run/logs" 2>/dev/null || [ "$(pwd -P)" != "$run/logs" ]; then
        echo "the run's logs/ is not a directory of the run directory" >&2; exit 3
      fi
      if [ -z "$2" ]; then ls -1A; exit 0; fi
      { command exec 3< "./$2.log"; } 2>/dev/null || { echo "no log $2.log in the run's logs/" >&2; exit 4; }
      if [ "$(readlink "/proc/$$/fd/3")" != "$run/logs/$2.log" ] || [ ! -f "/proc/$$/fd/3" ] \\
          || [ "$(stat -L -c %h "/proc/$$/fd/3")" != 1 ]; then
        echo "logs/$2.log is not a regular file of the run directory (a link?): not read" >&2; exit 5
      fi
      tail -n "$3" <&3
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

  static String command(String runDir, String name, int lines) {
    return "bash --norc --noprofile -c " + Shell.quote(SCRIPT) + " srt-logs " + Shell.quote(runDir) + " " + Shell.quote(name) + " " + lines;
  }
}
