package dev.srt.operator.host;

import dev.srt.operator.config.Echo;
import dev.srt.operator.base.Shell;
import dev.srt.operator.results.RunFileReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs arms as detached bash scripts on one host. The script runs in its own session and process
 * group under a small wrapper that records {@code pid}/{@code pgid} before the script starts and
 * {@code exit-code} after it ends, so the submitting command returns at once and nothing depends
 * on the connection staying up.
 *
 * <p>Every process of a run carries {@code SRT_RUN_ID=<runId>} in its environment. That is how
 * status and cancel tell the run's processes from others that happen to reuse a recorded pid or
 * share a listed process group: they never signal a process without it.
 */
public final class DirectBackend implements Backend {
  private static final Logger log = LoggerFactory.getLogger(DirectBackend.class);
  static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
  /** How long cancel waits after TERM before it KILLs what is left. */
  public static final Duration DEFAULT_CANCEL_GRACE = Duration.ofSeconds(30);

  /**
   * Runs as the session leader of the detached run (started by setsid). Trapping TERM (with an
   * action, not by ignoring it, so the script does not inherit an ignored signal) lets the
   * wrapper outlive a TERM sent to the group long enough to record the script's exit status.
   *
   * <p>The run it waits for is another run, whose processes could make its {@code pid} anything: it
   * is read by the run-file reader's rule ({@link RunFileReader}), so a FIFO there cannot hold this
   * run (and every run queued after it) forever. A pid file that is refused or holds no live pid
   * ends the wait, as a missing one did; the host lease still keeps the runs apart.
   */
  static final String WRAPPER = RunFileReader.BASH + """
      stat=$(cat /proc/$$/stat)
      set -- ${stat##*) }
      printf '%s\\n' "$3" >pgid.tmp && mv -f pgid.tmp pgid
      printf '%s\\n' "$$" >pid.tmp && mv -f pid.tmp pid
      trap 'true' TERM INT HUP
      if [ -n "${SRT_AFTER_RUN_DIR:-}" ]; then
        while [ ! -e cancel-requested ] && [ ! -e "$SRT_AFTER_RUN_DIR/exit-code" ] \\
            && srt_read_run_line "$SRT_AFTER_RUN_DIR/pid" 32 && kill -0 "${REPLY//[!0-9]/}" 2>/dev/null; do
          sleep 1
        done
        [ -z "$SRT_WHY" ] || printf 'not waiting for the run before this one: its %s\\n' "$SRT_WHY"
      fi
      if [ -e cancel-requested ]; then
        code=143
      else
        bash ./"$0"
        code=$?
      fi
      printf '%s\\n' "$code" >exit-code.tmp && mv -f exit-code.tmp exit-code
      """;

  private final Transport transport;
  private final String workDir;
  private final Duration cancelGrace;

  public DirectBackend(Transport transport, String workDir) {
    this(transport, workDir, DEFAULT_CANCEL_GRACE);
  }

  public DirectBackend(Transport transport, String workDir, Duration cancelGrace) {
    this.transport = transport;
    this.workDir = workDir;
    this.cancelGrace = cancelGrace;
  }

  @Override
  public Transport transport() {
    return transport;
  }

  @Override
  public RunDirectory runDirectory(RunRef run) {
    return RunDirectory.of(run, workDir, RunDirectory.DIRECT_SCRIPT);
  }

  /** A recorded pid means the run was started (perhaps already finished): never start it twice. */
  @Override
  public Submission submit(RunRef run, RunFiles files) throws HostException {
    String script = files.script();
    String recorded = transport.exec(lookupCommand(run), COMMAND_TIMEOUT)
        .orThrow("looking for an existing start of " + run + " on " + transport.describe()).stdout().strip();
    if (recorded.matches("\\d+")) {
      log.info("{}: run {} was already started as pid {}", transport.describe(), run, recorded);
      return new Submission(recorded, true);
    }
    SecretEnvWriter.write(transport, runDirectory(run), run, files.secrets());
    SecretEnvWriter.writeCompanion(transport, runDirectory(run), runDirectory(run).plan(), run, files.plan());
    SecretEnvWriter.writeCompanion(transport, runDirectory(run), runDirectory(run).record(), run, files.record());
    ExecResult result = transport.exec(startCommand(run, files.after()), script.getBytes(StandardCharsets.UTF_8), COMMAND_TIMEOUT)
        .orThrow("starting " + run + " on " + transport.describe());
    String pid = result.stdout().lines().filter(l -> l.startsWith("pid=")).map(l -> l.substring(4).strip())
        .findFirst().orElse("");
    if (!pid.matches("\\d+")) {
      throw new HostException(HostException.Kind.COMMAND_FAILED,
          transport.describe() + ": the start of " + run + " reported no pid: " + ExecResult.abbreviate(result.stdout(), 500));
    }
    log.info("{}: started run {} as pid {}", transport.describe(), run, pid);
    return new Submission(pid, false);
  }

  /**
   * TERM to the script's group, then after the grace period (or as soon as the script is gone) KILL
   * to every group the run recorded and to every remaining process of the run. All in one remote
   * command, bounded by the grace period.
   *
   * @param jobId unused: the run directory's pgid and pgids files say what to stop
   */
  @Override
  public void cancel(RunRef run, String jobId) throws HostException {
    Duration timeout = cancelGrace.plus(Duration.ofSeconds(30));
    ExecResult result = transport.exec(cancelCommand(run), timeout)
        .orThrow("cancelling " + run + " on " + transport.describe());
    String outcome = result.stdout().strip();
    log.info("{}: cancel of run {}: {}", transport.describe(), run, outcome);
    if (outcome.startsWith("survivors ")) {
      throw new HostException(HostException.Kind.COMMAND_FAILED, transport.describe() + ": "
          + outcome.substring("survivors ".length()) + " process(es) of run " + run + " survived KILL");
    }
  }

  @Override
  public JobProbe jobProbe() {
    return PROBE;
  }

  /**
   * The recorded pid's digits, or nothing; a pid that is there but refused by the run-file reader
   * fails the command with the reason: the run may have started, so it is not started again.
   */
  String lookupCommand(RunRef run) {
    return RunFileReader.BASH
        + "rc=0\n"
        + "srt_read_run_line " + Shell.quote(runDirectory(run).pid()) + " 32 || rc=$?\n"
        + "if [ \"$rc\" -eq 2 ]; then printf '%s\\n' \"$SRT_WHY\" >&2; exit 3; fi\n"
        + "printf '%s' \"${REPLY//[!0-9]/}\"\n";
  }

  /**
   * {@code set -m} gives the background job its own process group; without it bash would start
   * it with SIGINT and SIGQUIT ignored, and the script could never trap them.
   */
  String startCommand(RunRef run) {
    return startCommand(run, null);
  }

  /**
   * {@code after}: the run whose script must end first (the wrapper waits while its pid lives and
   * it has no exit code; a cancel meanwhile ends the wait without starting the script); null for none.
   */
  String startCommand(RunRef run, RunFiles.After after) {
    RunDirectory dir = runDirectory(run);
    List<String> argv = new ArrayList<>(RunEnvironment.ENV_PREFIX);
    argv.add("SRT_RUN_ID=" + run.runId());
    if (after != null) {
      argv.add("SRT_AFTER_RUN_DIR=" + runDirectory(after.run()).path());
    }
    argv.addAll(List.of("setsid", "bash", "-c", WRAPPER, dir.scriptName()));
    String launch = Shell.join(argv);
    return "set -e\n"
        + RunFileReader.BASH
        + RunDirectorySetup.fromStdin(dir)
        + "cd -- " + Shell.quote(dir.path()) + "\n"
        + "rm -f -- pid pgid exit-code cancel-requested\n"
        + "set -m\n"
        + launch + " </dev/null >>logs/script.log 2>&1 &\n"
        + "set +m\n"
        + "for _ in $(seq 100); do [ -s pid ] && break; sleep 0.1; done\n"
        + "[ -s pid ] || { echo 'the run did not start within 10 s; see logs/script.log' >&2; exit 1; }\n"
        + "srt_read_run_line pid 32 || { printf '%s\\n' \"$SRT_WHY\" >&2; exit 1; }\n"
        + "printf 'pid=%s\\n' \"$REPLY\"\n";
  }

  String cancelCommand(RunRef run) {
    RunDirectory dir = runDirectory(run);
    return "dir=" + Shell.quote(dir.path()) + "\n"
        + "marker=" + Shell.quote("SRT_RUN_ID=" + run.runId()) + "\n"
        + "grace=" + Math.max(1, cancelGrace.toSeconds()) + "\n"
        + RunFileReader.BASH
        + CANCEL_SCRIPT;
  }

  /**
   * A group is signalled as a whole only if every live member carries the run's marker; otherwise
   * only its members that do. Group ids 0 and 1 mean "my group" and "everyone" to kill(1) and
   * are never used; nor is the group of this shell.
   */
  static final String CANCEL_SCRIPT = """
      [ -d "$dir" ] || { echo gone; exit 0; }
      stat=$(cat /proc/$$/stat)
      set -- ${stat##*) }
      self_group=$3
      ours() {
        grep -lzxF -- "$marker" /proc/[0-9]*/environ 2>/dev/null | while IFS=/ read -r _ _ p _; do
          [ "$p" = "$$" ] || printf '%s\\n' "$p"
        done
      }
      carries_marker() { grep -qzxF -- "$marker" "/proc/$1/environ" 2>/dev/null; }
      signal_group() {
        local sig=$1 g=$2 p members foreign=0
        case $g in ''|0|1|*[!0-9]*) return 0 ;; esac
        [ "$g" -ne "$self_group" ] || return 0
        members=$(pgrep -g "$g") || return 0
        for p in $members; do
          [ -e "/proc/$p" ] || continue
          carries_marker "$p" || foreign=1
        done
        if [ "$foreign" -eq 0 ]; then
          kill -s "$sig" -- "-$g" 2>/dev/null
        else
          for p in $members; do carries_marker "$p" && kill -s "$sig" "$p" 2>/dev/null; done
        fi
        return 0
      }
      srt_read_run_line "$dir/pgid" 32 || true
      main=${REPLY//[!0-9]/}
      [ -n "$(ours)" ] || { echo gone; exit 0; }
      : >"$dir/cancel-requested"
      if [ -n "$main" ]; then
        signal_group TERM "$main"
      else
        for p in $(ours); do kill -s TERM "$p" 2>/dev/null; done
      fi
      end=$((SECONDS + grace))
      while [ "$SECONDS" -lt "$end" ] && [ -n "$(ours)" ]; do
        if [ -n "$main" ] && ! pgrep -g "$main" >/dev/null; then break; fi
        sleep 0.2
      done
      # pgids: one line per group the script started; a bounded read (no run starts a million groups)
      groups=$(srt_read_run_file "$dir/pgids" 1048576 2>/dev/null | tr -dc '0-9\\n')
      for g in $main $groups; do signal_group KILL "$g"; done
      for p in $(ours); do kill -s KILL "$p" 2>/dev/null; done
      end=$((SECONDS + 5))
      while [ "$SECONDS" -lt "$end" ] && [ -n "$(ours)" ]; do sleep 0.1; done
      left=$(ours | wc -l)
      if [ "$left" -eq 0 ]; then echo cancelled; else echo "survivors $left"; fi
      """;

  static final JobProbe PROBE = new JobProbe() {
    /**
     * Builtins only, whatever the number of runs. The pid is checked before exit-code is read, so
     * a wrapper ending in between cannot look killed.
     */
    @Override
    public String bashFunction() {
      return """
          carries_marker() {
            local kv
            while IFS= read -r -d '' kv; do
              [ "$kv" != "$2" ] || return 0
            done 2>/dev/null <"/proc/$1/environ"
            return 1
          }
          probe_jobs() {
            local n dir pid alive code cancel
            for n in "${!run_dir[@]}"; do
              dir=${run_dir[n]}
              first_digits "$n" "$dir/pid" 32
              pid=$REPLY alive=0 cancel=0
              if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && carries_marker "$pid" "SRT_RUN_ID=${run_id[n]}"; then
                alive=1
              fi
              first_digits "$n" "$dir/exit-code" 32
              code=$REPLY
              [ ! -e "$dir/cancel-requested" ] || cancel=1
              field "$n" pid "$pid"; field "$n" alive "$alive"; field "$n" exit-code "$code"; field "$n" cancel-requested "$cancel"
            done
          }
          """;
    }

    @Override
    public JobStatus parse(Map<String, String> fields) {
      boolean cancelRequested = "1".equals(fields.get("cancel-requested"));
      String code = fields.getOrDefault("exit-code", "");
      if (!code.isEmpty()) {
        // Digits only (first_digits), but up to 32 of them: anything in the run can write the file.
        if (code.length() > 3 || Integer.parseInt(code) > 255) {
          return new JobStatus(JobState.FAILED, "its exit-code file holds " + Echo.value(code) + ", not an exit status (0 to 255)", null);
        }
        int exit = Integer.parseInt(code);
        if (exit == 0) {
          return new JobStatus(JobState.COMPLETED, null, 0);
        }
        if (exit == 130 || exit == 143 || cancelRequested) {
          return new JobStatus(JobState.CANCELLED, cancelRequested ? "cancel requested" : "interrupted", exit, cancelRequested);
        }
        return new JobStatus(JobState.FAILED, null, exit);
      }
      if ("1".equals(fields.get("alive"))) {
        return JobStatus.of(JobState.RUNNING);
      }
      if (fields.getOrDefault("pid", "").isEmpty()) {
        return new JobStatus(JobState.NOT_FOUND, "no pid recorded for this run", null);
      }
      return cancelRequested
          ? new JobStatus(JobState.CANCELLED, "killed after a cancel request", null, true)
          : new JobStatus(JobState.FAILED, "the script ended without recording an exit code (killed?)", null);
    }
  };
}
