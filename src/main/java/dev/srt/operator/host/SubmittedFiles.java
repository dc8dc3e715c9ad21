package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import dev.srt.operator.results.RunFileReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What was submitted for runs, read back from their run directories in one remote command: each
 * run's {@code plan.json} and {@code record.json}, read by the run-file reader's rule
 * ({@link RunFileReader}: regular files only, no link, bounded), base64-framed as the other readers
 * of the host layer.
 *
 * @param plan the run's plan.json, or null when it has none (or it is too large, or refused)
 * @param record the run's record.json, or null likewise
 * @param refused why a file that is there was not read ({@code record.json is not a regular file (a
 *     FIFO): not read}), or null
 */
public record SubmittedFiles(String plan, String record, String refused) {
  public SubmittedFiles(String plan, String record) {
    this(plan, record, null);
  }

  /** The largest plan.json or record.json read (a spec within the validator's bounds is far smaller). */
  public static final int MAX_BYTES = 8 * 1024 * 1024;
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String END = "END";
  /** Marks a file the reader refused (compared by identity): its empty frame is not its content. */
  private static final String REFUSED = new String("refused");

  /** The submitted files of every run in {@code dirs} (run → its directory on the host). */
  public static Map<RunRef, SubmittedFiles> read(Transport transport, Map<RunRef, String> dirs) throws HostException {
    if (dirs.isEmpty()) {
      return Map.of();
    }
    List<RunRef> runs = List.copyOf(dirs.keySet());
    StringBuilder cmd = new StringBuilder(RunFileReader.BASH).append("""
        set -u
        # read_file N NAME PATH: "N NAME <base64>" with one byte more than MAX (too large: not taken),
        # and "N refused-NAME <base64>" with the reason when the reader refused the file.
        read_file() {
          local why
          [ -e "$3" ] || [ -L "$3" ] || return 0
          printf '%s %s ' "$1" "$2"
          { why=$( { srt_read_run_file "$3" MAX1 "$2.json" | base64 -w0 >&4; } 2>&1 ); } 4>&1
          printf '\\n'
          [ -z "$why" ] || { printf '%s refused-%s ' "$1" "$2"; printf '%s' "$why" | base64 -w0; printf '\\n'; }
        }
        """.replace("MAX1", String.valueOf(MAX_BYTES + 1)));
    for (int i = 0; i < runs.size(); i++) {
      String dir = dirs.get(runs.get(i));
      cmd.append("read_file ").append(i).append(" plan ").append(Shell.quote(dir + "/plan.json")).append('\n');
      cmd.append("read_file ").append(i).append(" record ").append(Shell.quote(dir + "/record.json")).append('\n');
    }
    cmd.append("printf '%s\\n' ").append(END).append('\n');
    ExecResult result = transport.exec(cmd.toString(), TIMEOUT).orThrow("reading the records of " + runs.size() + " run(s) on "
        + transport.describe());
    Map<Integer, String[]> files = new LinkedHashMap<>();
    Map<Integer, String> refusals = new LinkedHashMap<>();
    boolean complete = false;
    for (String line : result.stdout().split("\n")) {
      if (line.equals(END)) {
        complete = true;
        continue;
      }
      String[] f = line.split(" ", 3);
      if (f.length < 2 || !f[0].matches("\\d{1,6}") || Integer.parseInt(f[0]) >= runs.size()) {
        continue;
      }
      String[] pair = files.computeIfAbsent(Integer.parseInt(f[0]), k -> new String[2]);
      try {
        byte[] bytes = Base64.getDecoder().decode(f.length == 3 ? f[2].strip() : "");
        // one byte more than the limit was asked for: a longer file is too large, and not taken
        String text = bytes.length > MAX_BYTES ? null : new String(bytes, StandardCharsets.UTF_8);
        if (f[1].startsWith("refused-")) {
          refusals.merge(Integer.parseInt(f[0]), String.valueOf(text).strip(), (a, b) -> a + "; " + b);
          int which = f[1].equals("refused-plan") ? 0 : f[1].equals("refused-record") ? 1 : -1;
          if (which >= 0) {
            pair[which] = REFUSED;
          }
        } else if (f[1].equals("plan")) {
          pair[0] = text;
        } else if (f[1].equals("record")) {
          pair[1] = text;
        }
      } catch (IllegalArgumentException e) {
        throw new HostException(HostException.Kind.IO, "the run records' output has a damaged frame");
      }
    }
    if (!complete) {
      throw new HostException(HostException.Kind.IO, "the run records' output is incomplete (no " + END + " line)");
    }
    Map<RunRef, SubmittedFiles> out = new LinkedHashMap<>();
    for (int i = 0; i < runs.size(); i++) {
      String[] pair = files.getOrDefault(i, new String[2]);
      out.put(runs.get(i), new SubmittedFiles(pair[0] == REFUSED ? null : pair[0], pair[1] == REFUSED ? null : pair[1],
          refusals.get(i)));
    }
    return out;
  }
}
