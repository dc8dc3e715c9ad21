package dev.srt.operator.host;

import dev.srt.operator.results.RunFileReader;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one remote command of a {@link ClusterObserver} poll, and the parser of its output.
 *
 * <p>Its cost stays about flat in the number of runs: bash builtins do the per-run work (reading
 * small files, each events.jsonl from its offset, the run's {@code /proc/PID/environ}), and the
 * few external commands each serve all runs at once: one {@code stat} of every events.jsonl (only
 * files that grew are read), the backend's batched job query ({@link JobProbe}), one {@code base64}
 * of the whole answer. A run's events.jsonl is read with {@code read -d '' -n}, which keeps NUL
 * bytes apart, so every byte of the file reaches the answer; an offset beyond
 * {@value #SKIP_LIMIT} bytes (a chatty run) is reached with one {@code tail} instead of reading
 * up to it.
 *
 * <p>Framing, both ways, is chosen so that no file content or name can break it. In: runs arrive on
 * stdin as NUL-terminated fields (a path cannot contain NUL), so the command line is constant
 * however many runs there are. Out: one line {@code POLL <base64>}, then {@code END}; decoded, a
 * sequence of length-prefixed facts {@code F <run> <name> <length>\n<bytes>\n} closed by
 * {@code E\n}. A parser that takes every value by its length never looks inside one, so nothing a
 * run writes can pass for another run's fact; a missing {@code E} or {@code END} means the output
 * was cut short.
 */
final class PollScript {
  static final String END = "END";
  static final String BODY = "POLL ";
  /** Offsets up to this many bytes are reached by reading (builtins); beyond it one {@code tail} seeks. */
  static final int SKIP_LIMIT = 4 * 1024 * 1024;
  /**
   * Event bytes of all runs together per poll: base64 makes them a third larger, and a transport
   * takes at most 64 MiB of output. Runs beyond it are read from where they stand next poll.
   */
  static final int MAX_TOTAL_EVENT_BYTES = 32 * 1024 * 1024;
  /** NUL bytes taken per run and poll: each costs a loop turn in bash, so a file of NULs cannot stall the poll. */
  static final int MAX_NULS = 4096;

  private static final Pattern FACT = Pattern.compile("F (\\d{1,9}) ([a-z][a-z0-9-]{0,39}) (\\d{1,10})");

  /** One run as the script receives it; {@code eventsOffset} -1 skips events.jsonl. */
  record Row(int index, String runDir, String runId, String jobId, long eventsOffset) {}

  private PollScript() {}

  static String script(JobProbe probe, int maxEventBytes, int maxTotalEventBytes) {
    return """
        set -u -o pipefail
        LC_ALL=C
        max=%d
        budget=%d
        skip_limit=%d
        max_nuls=%d
        run_idx=() run_dir=() run_id=() job_id=() run_off=()
        while IFS= read -r -d '' i && IFS= read -r -d '' d && IFS= read -r -d '' r \\
            && IFS= read -r -d '' j && IFS= read -r -d '' o; do
          run_idx+=("$i") run_dir+=("$d") run_id+=("$r") job_id+=("$j") run_off+=("$o")
        done
        exec </dev/null
        # field N NAME VALUE: a fact of run number N (position in the arrays), length-prefixed.
        field() { printf 'F %%s %%s %%s\\n%%s\\n' "${run_idx[$1]}" "$2" "${#3}" "$3"; }
        %s
        refused=()
        # refuse N: run number N has a file that the reader refused ($SRT_WHY); said once per poll, for all its files.
        refuse() { refused[$1]+=${refused[$1]:+; }$SRT_WHY; }
        # first_digits N FILE LIMIT: the digits of the first line (at most LIMIT bytes) of run N's FILE in REPLY.
        first_digits() {
          local rc=0
          srt_read_run_line "$2" "$3" || rc=$?
          [ "$rc" -ne 2 ] || refuse "$1"
          REPLY=${REPLY//[!0-9]/}
        }
        # take N: up to N bytes of stdin into the array chunk, whose elements were separated by NULs.
        take() {
          local need=$1 part cur='' nuls=0
          chunk=()
          while [ "$need" -gt 0 ] && [ "$nuls" -lt "$max_nuls" ]; do
            if ! IFS= read -r -d '' -n "$need" part; then
              cur+=$part
              break
            fi
            cur+=$part
            if [ "${#part}" -ge "$need" ]; then
              break
            fi
            chunk+=("$cur")
            cur=
            need=$((need - ${#part} - 1))
            nuls=$((nuls + 1))
          done
          chunk+=("$cur")
        }
        # skip N: reads N bytes of stdin; fails if the file ends first.
        skip() {
          local need=$1 part nuls=0
          while [ "$need" -gt 0 ]; do
            IFS= read -r -d '' -n "$need" part || return 1
            if [ "${#part}" -ge "$need" ]; then
              return 0
            fi
            need=$((need - ${#part} - 1))
            nuls=$((nuls + 1))
            [ "$nuls" -lt "$max_nuls" ] || return 2
          done
        }
        emit_chunk() {
          local len=$((${#chunk[@]} - 1)) e
          for e in "${chunk[@]}"; do len=$((len + ${#e})); done
          budget=$((budget - len))
          printf 'F %%s events %%s\\n' "${run_idx[$1]}" "$len"
          printf '%%s' "${chunk[0]}"
          [ "${#chunk[@]}" -le 1 ] || printf '\\0%%s' "${chunk[@]:1}"
          printf '\\n'
        }
        declare -A sizes=()
        stat_events() {
          local n f files=() rec
          for n in "${!run_dir[@]}"; do
            f=${run_dir[n]}/events.jsonl
            [ "${run_off[n]}" = -1 ] || [ ! -f "$f" ] || [ -L "$f" ] || files+=("$f")
          done
          [ "${#files[@]}" -gt 0 ] || return 0
          while IFS= read -r -d '' rec; do
            sizes[${rec#* }]=${rec%%%% *}
          done < <(stat -L --printf '%%s %%n\\0' -- "${files[@]}" 2>/dev/null)
        }
        # read_events N: run N's new event bytes, read from what the run-file reader opened (never by name).
        read_events() {
          local n=$1 f=${run_dir[$1]}/events.jsonl off=${run_off[$1]} size start rc want=$max
          [ "$off" -ge 0 ] 2>/dev/null || return 0
          rc=0
          srt_open_run_file "$f" || rc=$?
          if [ "$rc" -eq 2 ]; then refuse "$n"; fi
          size=${sizes[$f]:--1}
          [ "$rc" -eq 0 ] || size=-1
          field "$n" size "$size"
          [ "$size" -ge 0 ] || return 0
          start=$off
          [ "$size" -ge "$off" ] || start=0
          field "$n" start "$start"
          chunk=("")
          [ "$budget" -ge "$want" ] || want=$budget
          if [ "$size" -gt "$start" ] && [ "$want" -gt 0 ]; then
            if [ "$start" -le "$skip_limit" ]; then
              rc=0
              { skip "$start" || rc=$?; [ "$rc" -ne 0 ] || take "$want"; } 2>/dev/null <&"$SRT_FD"
              if [ "$rc" -eq 2 ]; then
                # tail seeks from the descriptor's position: start again from a fresh one
                exec {SRT_FD}<&-
                srt_open_run_file "$f" && take "$want" < <(tail -c +"$((start + 1))" 2>/dev/null <&"$SRT_FD")
              fi
            else
              take "$want" < <(tail -c +"$((start + 1))" 2>/dev/null <&"$SRT_FD")
            fi
          fi
          [ -z "$SRT_FD" ] || exec {SRT_FD}<&-
          emit_chunk "$n"
        }
        %s
        printf '%%s' '%s'
        {
          probe_jobs
          stat_events
          for n in "${!run_dir[@]}"; do read_events "$n"; done
          for n in "${!refused[@]}"; do field "$n" refused "${refused[n]}"; done
          printf 'E\\n'
        } | base64 -w0 || exit 1
        printf '\\n%%s\\n' %s
        """.formatted(maxEventBytes, maxTotalEventBytes, SKIP_LIMIT, MAX_NULS, RunFileReader.BASH,
            probe.bashFunction(), BODY, END);
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
   * Facts per run index. Lines before the answer are ignored (a host with a chatty login shell
   * may print some); an answer without its end, or whose facts do not add up, is an error.
   */
  static Map<Integer, Map<String, byte[]>> parse(String output) throws HostException {
    List<String> lines = output.lines().toList();
    int end = lines.lastIndexOf(END);
    if (end < 1 || !lines.get(end - 1).startsWith(BODY)) {
      throw new HostException(HostException.Kind.IO, "poll output is incomplete (no " + END + " line)");
    }
    byte[] body;
    try {
      body = Base64.getDecoder().decode(lines.get(end - 1).substring(BODY.length()).strip());
    } catch (IllegalArgumentException e) {
      throw new HostException(HostException.Kind.IO, "poll output is damaged (not base64)");
    }
    return facts(body);
  }

  private static Map<Integer, Map<String, byte[]>> facts(byte[] body) throws HostException {
    Map<Integer, Map<String, byte[]>> runs = new HashMap<>();
    int at = 0;
    while (true) {
      int eol = indexOf(body, (byte) '\n', at, 80);
      if (eol < 0) {
        throw damaged(at);
      }
      String header = new String(body, at, eol - at, StandardCharsets.US_ASCII);
      if (header.equals("E") && eol + 1 == body.length) {
        return runs;
      }
      Matcher m = FACT.matcher(header);
      if (!m.matches()) {
        throw damaged(at);
      }
      long length = Long.parseLong(m.group(3));
      int valueStart = eol + 1;
      if (length > body.length - valueStart - 1 || body[valueStart + (int) length] != '\n') {
        throw damaged(at);
      }
      byte[] value = java.util.Arrays.copyOfRange(body, valueStart, valueStart + (int) length);
      runs.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new HashMap<>()).put(m.group(2), value);
      at = valueStart + (int) length + 1;
    }
  }

  private static int indexOf(byte[] bytes, byte b, int from, int within) {
    for (int i = from; i < Math.min(bytes.length, from + within); i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static HostException damaged(int offset) {
    return new HostException(HostException.Kind.IO, "poll output is damaged or cut short at byte " + offset);
  }
}
