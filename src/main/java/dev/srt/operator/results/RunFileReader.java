package dev.srt.operator.results;

/**
 * How every file of a run directory is read: the one definition, as bash functions, that the
 * listing of runs, the poll, the detach wrapper, cancel, {@code logs}, the submitted files and the
 * result files all include (they read on the host, over SSH or locally, never with Java I/O).
 *
 * <p>Anything in a run can write its run directory (every process of the run, a build of sources
 * the spec names), so a run file may be a FIFO, a device, a directory, a link to {@code /dev/zero}
 * or to another run's or the user's files, or huge. A FIFO blocks whoever opens it for reading
 * until something writes to it, and one blocked read stalls the whole command: the poll of every
 * run of a cluster, the next run of a detached queue. The rule:
 *
 * <ul>
 *   <li>only a regular file is read, and neither it nor its directory may be a symbolic link;
 *   <li>its type is tested before it is opened, and it is opened <em>read-write</em>: on Linux
 *       that open never blocks, even on a FIFO swapped in after the test (a read-only open of one
 *       would wait for a writer), and what was opened is tested again through its descriptor;
 *   <li>at most a given number of bytes is read (bash builtins read at most a line of a given length);
 *   <li>anything else is refused with one line naming the file and what it is
 *       ({@code record.json is not a regular file (a FIFO): not read}), which the caller passes on to
 *       the user, and the other files and runs are read as usual.
 * </ul>
 *
 * <p>Read-write needs the file to be writable by the reader: run files are written by the run's own
 * user, who is the one reading them. A run file made read-only is refused ("cannot be opened"),
 * as a run that tampers with its own records has no trustworthy ones. A file missing at the test
 * is absent (status 1, nothing said); one removed between the test and the open is created empty
 * by the open, which reads as empty.
 */
public final class RunFileReader {
  /**
   * {@code srt_open_run_file PATH [NAME]}: opens PATH on a new descriptor, {@code $SRT_FD}, by the
   * rule above. Status 0 opened (the caller closes it: {@code exec {SRT_FD}<&-}), 1 absent, 2 refused
   * with {@code $SRT_WHY} one line naming NAME (default: PATH's last part) and {@code $SRT_KIND} one
   * of {@code link fifo directory socket device other}. Builtins only, so a
   * reader of hundreds of runs spends no process per file.
   *
   * <p>{@code srt_read_run_line PATH LIMIT [NAME]}: the first line of the file, at most LIMIT bytes,
   * in {@code $REPLY} (empty when absent or refused, {@code $SRT_WHY} saying why); builtins only.
   *
   * <p>{@code srt_read_run_file PATH MAX [NAME]}: prints at most MAX bytes of the file (ask for one
   * more than the limit to tell an oversized file); refused, it prints the reason on stderr and
   * returns 2; absent, nothing and 1. As it hands the bytes on, it also refuses a file with a
   * second name (a hard link to {@code secret.env} is a regular file too).
   */
  public static final String BASH = """
      # srt_run_file_name PATH [NAME]: NAME, else PATH's last part, without control characters.
      srt_run_file_name() {
        local name=${2:-${1##*/}}
        REPLY=${name//[^[:print:]]/?}
      }
      # srt_open_run_file PATH [NAME]: see dev.srt.operator.results.RunFileReader.
      srt_open_run_file() {
        local p=$1 name dir kind=
        srt_run_file_name "$1" "${2:-}"
        name=$REPLY
        SRT_FD= SRT_WHY= SRT_KIND=
        dir=${p%/*}
        [ "$dir" != "$p" ] || dir=.
        if [ -L "$dir" ]; then SRT_KIND=link kind='its directory is a symbolic link'
        elif [ -L "$p" ]; then SRT_KIND=link kind='a symbolic link'
        elif [ ! -e "$p" ]; then return 1
        elif [ -p "$p" ]; then SRT_KIND=fifo kind='a FIFO'
        elif [ -d "$p" ]; then SRT_KIND=directory kind='a directory'
        elif [ -S "$p" ]; then SRT_KIND=socket kind='a socket'
        elif [ -b "$p" ] || [ -c "$p" ]; then SRT_KIND=device kind='a device'
        elif [ ! -f "$p" ]; then SRT_KIND=other kind='not a regular file'
        elif ! { command exec {SRT_FD}<>"$p"; } 2>/dev/null; then SRT_FD= SRT_KIND=other kind='it cannot be opened'
        elif [ ! -f "/dev/fd/$SRT_FD" ]; then exec {SRT_FD}<&-; SRT_FD= SRT_KIND=other kind='it was replaced while being opened'
        else return 0
        fi
        SRT_WHY="$name is not a regular file ($kind): not read"
        return 2
      }
      # srt_read_run_line PATH LIMIT [NAME]: the file's first line (of its first LIMIT bytes, up to a NUL) in REPLY.
      srt_read_run_line() {
        local rc=0
        srt_open_run_file "$1" "${3:-}" || rc=$?
        REPLY=
        [ "$rc" -eq 0 ] || return "$rc"
        # NUL ends the read: bash skips NUL bytes uncounted, so a file of them would be read to its end
        IFS= read -r -d '' -n "$2" -u "$SRT_FD" REPLY 2>/dev/null || true
        REPLY=${REPLY%%$'\\n'*}
        exec {SRT_FD}<&-
        return 0
      }
      # srt_read_run_file PATH MAX [NAME]: at most MAX bytes of the file on stdout.
      srt_read_run_file() {
        local rc=0
        srt_open_run_file "$1" "${3:-}" || rc=$?
        if [ "$rc" -eq 0 ] && [ "$(stat -L -c %h -- "/dev/fd/$SRT_FD" 2>/dev/null)" != 1 ]; then
          exec {SRT_FD}<&-
          srt_run_file_name "$1" "${3:-}"
          SRT_WHY="$REPLY is not a regular file (it has another name: a hard link): not read"
          rc=2
        fi
        if [ "$rc" -ne 0 ]; then
          [ "$rc" -ne 2 ] || printf '%s\\n' "$SRT_WHY" >&2
          return "$rc"
        fi
        head -c "$2" <&"$SRT_FD"
        exec {SRT_FD}<&-
      }
      """;

  private RunFileReader() {}
}
