package dev.srt.operator.host;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one remote command of a {@link ClusterObserver} poll, and the parser of its output.
 *
 * <p>Framing, both ways, is chosen so that no file content or name can break it. In: runs arrive on
 * stdin as NUL-terminated fields (a path cannot contain NUL), so the command line is constant
 * however many runs there are. Out: one line per fact, {@code F <run> <name> <base64>}, and a
 * final {@code END} that proves the output is complete; user-written bytes only ever appear
 * base64-encoded.
 */
final class PollScript {
  static final String END = "END";

  /** One run as the script receives it; {@code eventsOffset} -1 skips events.jsonl. */
  record Row(int index, String runDir, String runId, String jobId, long eventsOffset) {}

  private PollScript() {}

  static String script(JobProbe probe, int maxEventBytes) {
    return """
        set -u
        max=%d
        field() { printf 'F %%s %%s ' "$idx" "$1"; printf '%%s' "$2" | base64 -w0; printf '\\n'; }
        read_events() {
          local f="$1/events.jsonl" off=$2 size start
          [ "$off" -ge 0 ] || return 0
          size=$(stat -c %%s -- "$f" 2>/dev/null) || size=-1
          field size "$size"
          [ "$size" -ge 0 ] || return 0
          start=$off
          if [ "$size" -lt "$off" ]; then start=0; fi
          field start "$start"
          printf 'F %%s events ' "$idx"
          tail -c +"$((start + 1))" -- "$f" 2>/dev/null | head -c "$max" | base64 -w0
          printf '\\n'
        }
        %s
        while IFS= read -r -d '' idx && IFS= read -r -d '' dir && IFS= read -r -d '' rid \\
            && IFS= read -r -d '' job && IFS= read -r -d '' off; do
          probe_job "$dir" "$rid" "$job" </dev/null
          read_events "$dir" "$off" </dev/null
        done
        printf '%%s\\n' %s
        """.formatted(maxEventBytes, probe.bashFunction(), END);
  }

  static byte[] input(List<Row> rows) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Row row : rows) {
      for (String field : List.of(Integer.toString(row.index()), row.runDir(), row.runId(),
          row.jobId() == null ? "" : row.jobId(), Long.toString(row.eventsOffset()))) {
        if (field.indexOf('\0') >= 0) {
          throw new IllegalArgumentException("NUL in a poll field: " + field.replace('\0', '?'));
        }
        out.writeBytes(field.getBytes(StandardCharsets.UTF_8));
        out.write(0);
      }
    }
    return out.toByteArray();
  }

  /**
   * Fields per run index. Lines that are not facts are ignored (a probe may print noise on a
   * host with a chatty login shell); a missing {@code END} means the output was cut short.
   */
  static Map<Integer, Map<String, byte[]>> parse(String output) throws HostException {
    Map<Integer, Map<String, byte[]>> runs = new HashMap<>();
    boolean complete = false;
    for (String line : output.split("\n", -1)) {
      if (line.equals(END)) {
        complete = true;
        continue;
      }
      String[] parts = line.split(" ", 4);
      if (parts.length < 3 || !parts[0].equals("F") || !parts[1].matches("\\d{1,9}")) {
        continue;
      }
      byte[] value;
      try {
        value = Base64.getDecoder().decode(parts.length == 4 ? parts[3] : "");
      } catch (IllegalArgumentException e) {
        throw new HostException(HostException.Kind.IO, "poll output has a damaged field " + parts[2]);
      }
      runs.computeIfAbsent(Integer.parseInt(parts[1]), k -> new HashMap<>()).put(parts[2], value);
    }
    if (!complete) {
      throw new HostException(HostException.Kind.IO, "poll output is incomplete (no " + END + " line)");
    }
    return runs;
  }
}
