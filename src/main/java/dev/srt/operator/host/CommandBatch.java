package dev.srt.operator.host;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Several commands, each with its own stdin, run one after the other by one remote execution, each
 * in a bash of its own with its own exit status, stdout and stderr, as if each had been an
 * execution of its own. What one execution costs before any work (a login shell, which may read a
 * slow ~/.bashrc; a channel) is paid once for all of them.
 *
 * <p>In: per command a line {@code <command bytes> <stdin bytes>}, then the command, then its
 * stdin; {@code head -c} reads no more than its count, so each gets exactly its bytes, and the
 * command line of the execution stays constant. Out: per command a line {@code R <index> <exit>
 * o<stdout base64> e<stderr base64>}, then {@code END}: nothing a command prints can pass for
 * another's answer.
 */
final class CommandBatch {
  /** One command and its stdin. */
  record Command(String commandLine, byte[] stdin) {}

  static final String SCRIPT = """
      set -u -o pipefail
      LC_ALL=C
      tmp=$(mktemp -d) || exit 1
      trap 'rm -rf -- "$tmp"' EXIT
      i=0
      while IFS=' ' read -r clen slen; do
        case $clen$slen in ''|*[!0-9]*) echo "bad batch header: $clen $slen" >&2; exit 1 ;; esac
        head -c "$clen" >"$tmp/cmd"
        # cat drains what the command left unread, so head always takes its whole count from stdin.
        head -c "$slen" | { bash "$tmp/cmd" >"$tmp/out" 2>"$tmp/err"; rc=$?; cat >/dev/null; exit "$rc"; }
        rc=$?
        printf 'R %s %s o%s e%s\\n' "$i" "$rc" "$(base64 -w0 <"$tmp/out")" "$(base64 -w0 <"$tmp/err")"
        i=$((i + 1))
      done
      echo END
      """;

  private static final Pattern ANSWER = Pattern.compile("R (\\d+) (\\d+) o([A-Za-z0-9+/=]*) e([A-Za-z0-9+/=]*)");

  private CommandBatch() {}

  static byte[] input(List<Command> commands) {
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    for (Command c : commands) {
      byte[] command = c.commandLine().getBytes(StandardCharsets.UTF_8);
      byte[] stdin = c.stdin() == null ? new byte[0] : c.stdin();
      in.writeBytes((command.length + " " + stdin.length + "\n").getBytes(StandardCharsets.US_ASCII));
      in.writeBytes(command);
      in.writeBytes(stdin);
    }
    return in.toByteArray();
  }

  /**
   * Each command's result, in order; null for a command the output has no answer for (the batch
   * was cut short).
   */
  static List<ExecResult> parse(String output, int count) {
    List<ExecResult> results = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      results.add(null);
    }
    for (String line : output.lines().toList()) {
      Matcher m = ANSWER.matcher(line.strip());
      if (!m.matches()) {
        continue;
      }
      int index = Integer.parseInt(m.group(1));
      if (index < count) {
        results.set(index, new ExecResult(Integer.parseInt(m.group(2)), decode(m.group(3)), decode(m.group(4))));
      }
    }
    return results;
  }

  private static String decode(String base64) {
    return new String(Base64.getMimeDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
