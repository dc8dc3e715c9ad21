package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What was submitted for runs, read back from their run directories in one remote command: each
 * run's {@code plan.json} and {@code record.json}, each size-limited on the host (regular files
 * only, no link followed), base64-framed as the other readers of the host layer.
 *
 * @param plan the run's plan.json, or null when it has none (or it is too large)
 * @param record the run's record.json, or null likewise
 */
public record SubmittedFiles(String plan, String record) {
  /** The largest plan.json or record.json read (a spec within the validator's bounds is far smaller). */
  public static final int MAX_BYTES = 8 * 1024 * 1024;
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String END = "END";

  /** The submitted files of every run in {@code dirs} (run → its directory on the host). */
  public static Map<RunRef, SubmittedFiles> read(Transport transport, Map<RunRef, String> dirs) throws HostException {
    if (dirs.isEmpty()) {
      return Map.of();
    }
    List<RunRef> runs = List.copyOf(dirs.keySet());
    StringBuilder cmd = new StringBuilder("""
        set -u
        frame() { printf '%s %s ' "$1" "$2"; base64 -w0; printf '\\n'; }
        read_file() {
          if [ -f "$3" ] && [ ! -L "$3" ] && [ "$(stat -c %s -- "$3")" -le MAX ]; then head -c MAX -- "$3" | frame "$1" "$2"; fi
        }
        """.replace("MAX", String.valueOf(MAX_BYTES)));
    for (int i = 0; i < runs.size(); i++) {
      String dir = dirs.get(runs.get(i));
      cmd.append("read_file ").append(i).append(" plan ").append(Shell.quote(dir + "/plan.json")).append('\n');
      cmd.append("read_file ").append(i).append(" record ").append(Shell.quote(dir + "/record.json")).append('\n');
    }
    cmd.append("printf '%s\\n' ").append(END).append('\n');
    ExecResult result = transport.exec(cmd.toString(), TIMEOUT).orThrow("reading the records of " + runs.size() + " run(s) on "
        + transport.describe());
    Map<Integer, String[]> files = new LinkedHashMap<>();
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
        String text = new String(Base64.getDecoder().decode(f.length == 3 ? f[2].strip() : ""), StandardCharsets.UTF_8);
        if (f[1].equals("plan")) {
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
      out.put(runs.get(i), new SubmittedFiles(pair[0], pair[1]));
    }
    return out;
  }
}
