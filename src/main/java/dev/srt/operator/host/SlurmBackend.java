package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import dev.srt.operator.results.RunFileReader;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs arms as Slurm batch jobs, through a transport to a login node. A job carries the run in
 * its name ({@link RunRef#jobName()}) and, exactly, in its comment ({@link RunRef#marker()}); the
 * job id is also written to the run directory. Either lets a repeated submit find the job.
 *
 * <p>State comes from {@code squeue}, which knows jobs until MinJobAge after they end; then
 * from {@code sacct} when accounting is enabled (it often is not, and then says so and exits 1).
 * The observer asks both once per poll for all runs ({@link #PROBE}).
 */
public final class SlurmBackend implements Backend {
  private static final Logger log = LoggerFactory.getLogger(SlurmBackend.class);
  static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

  /** The most cancels one execution carries (one command line of job ids for squeue and scancel). */
  static final int MAX_CANCELS_PER_BATCH = 500;

  /** The most submissions one execution carries. */
  static final int MAX_SUBMITS_PER_BATCH = 25;
  /**
   * Batches of submissions at once: a batch runs its submissions one after the other (~0.1 s each
   * on a busy host: about 20 processes, squeue and sbatch), so several batches keep the host's
   * cores busy; below the transport's channels ({@code SshTransport}: 6), so polls and cancels
   * still get theirs.
   */
  static final int PARALLEL_SUBMIT_BATCHES = 3;
  /** What a batch of submissions may take beyond {@link #COMMAND_TIMEOUT}, per submission (sbatch waits for a busy slurmctld). */
  static final Duration BATCH_TIME_PER_SUBMIT = Duration.ofSeconds(4);

  private final Transport transport;
  private final String workDir;
  private final GroupCommit<Cancel, String> cancels;
  private final GroupCommit<Submit, ExecResult> submits;

  public SlurmBackend(Transport transport, String workDir) {
    this.transport = transport;
    this.workDir = workDir;
    this.cancels = new GroupCommit<>(transport.describe() + ": cancel", MAX_CANCELS_PER_BATCH, 1, this::cancelBatch);
    this.submits = new GroupCommit<>(transport.describe() + ": submit", MAX_SUBMITS_PER_BATCH, PARALLEL_SUBMIT_BATCHES,
        this::submitBatch);
  }

  @Override
  public Transport transport() {
    return transport;
  }

  @Override
  public RunDirectory runDirectory(RunRef run) {
    return RunDirectory.of(run, workDir, RunDirectory.SLURM_SCRIPT);
  }

  /**
   * One remote execution: finds the run's job if it has one (job-id file, then name and marker),
   * else writes {@code secret.env}, {@code plan.json}, {@code record.json} and the script from stdin and submits.
   */
  @Override
  public Submission submit(RunRef run, RunFiles files) throws HostException {
    byte[] secrets = files.secrets().isEmpty() ? new byte[0] : files.secrets().content();
    byte[] plan = files.plan() == null ? new byte[0] : files.plan().getBytes(StandardCharsets.UTF_8);
    byte[] record = files.record() == null ? new byte[0] : files.record().getBytes(StandardCharsets.UTF_8);
    byte[] script = files.script().getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream stdin = new ByteArrayOutputStream(secrets.length + plan.length + record.length + script.length);
    stdin.writeBytes(secrets);
    stdin.writeBytes(plan);
    stdin.writeBytes(record);
    stdin.writeBytes(script);
    ExecResult result = submits.call(new Submit(run, new CommandBatch.Command(
        submitCommand(run, secrets.length, files.plan() == null ? -1 : plan.length, files.record() == null ? -1 : record.length,
            files.after()),
        stdin.toByteArray())))
        .orThrow("submitting " + run + " on " + transport.describe());
    String last = lastLine(result.stdout());
    if (last.matches("existing \\d+")) {
      String id = last.substring("existing ".length());
      log.info("{}: run {} already has Slurm job {}", transport.describe(), run, id);
      return new Submission(id, true);
    }
    if (!last.matches("\\d+")) {
      throw new HostException(HostException.Kind.COMMAND_FAILED,
          transport.describe() + ": sbatch printed no job id: " + ExecResult.abbreviate(result.stdout(), 500));
    }
    if (secrets.length > 0) {
      log.info("{}: wrote the secret variables {} of run {}", transport.describe(), files.secrets().names(), run);
    }
    log.info("{}: submitted run {} as Slurm job {}", transport.describe(), run, last);
    return new Submission(last, false);
  }

  /**
   * Without a job id, the run's job is looked up as by {@link #submit} (job-id file, then name and
   * marker). Cancels that arrive together (a namespace or many comparisons deleted at once) share
   * one remote execution ({@link #cancelCommand}).
   */
  @Override
  public void cancel(RunRef run, String jobId) throws HostException {
    String id = jobId != null ? jobId : findJob(run).orElse(null);
    if (id == null) {
      log.info("{}: run {} has no Slurm job to cancel", transport.describe(), run);
      return;
    }
    String outcome = cancels.call(new Cancel(run, id));
    if (outcome.startsWith("foreign ")) {
      throw new HostException(HostException.Kind.COMMAND_FAILED, transport.describe() + ": job " + id
          + " has comment '" + outcome.substring("foreign ".length()) + "', not run " + run + "'s: not cancelled");
    }
    log.info("{}: cancel of run {} (job {}): {}", transport.describe(), run, id, outcome);
  }

  /** One run's submission. */
  record Submit(RunRef run, CommandBatch.Command command) {}

  /**
   * Submissions that arrive together (many comparisons applied at once) share one execution. A
   * batch cut short fails each of its submissions; a retry finds the jobs that were submitted
   * ({@link #submitCommand} looks first), so none is submitted twice.
   */
  private Map<Submit, ExecResult> submitBatch(List<Submit> batch) throws HostException {
    ExecResult result = transport.exec(CommandBatch.SCRIPT, CommandBatch.input(batch.stream().map(Submit::command).toList()),
        COMMAND_TIMEOUT.plus(BATCH_TIME_PER_SUBMIT.multipliedBy(batch.size())))
        .orThrow("submitting " + batch.size() + " run(s) on " + transport.describe());
    List<ExecResult> answers = CommandBatch.parse(result.stdout(), batch.size());
    Map<Submit, ExecResult> byItem = new HashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      if (answers.get(i) != null) {
        byItem.put(batch.get(i), answers.get(i));
      }
    }
    return byItem;
  }

  /** One run's job to cancel. */
  record Cancel(RunRef run, String jobId) {
    Cancel {
      if (!jobId.matches("\\d+")) {
        throw new IllegalArgumentException("not a Slurm job id: " + jobId);
      }
    }
  }

  private Map<Cancel, String> cancelBatch(List<Cancel> batch) throws HostException {
    ExecResult result = transport.exec(cancelCommand(), cancelInput(batch), COMMAND_TIMEOUT)
        .orThrow("cancelling " + batch.size() + " job(s) on " + transport.describe());
    return parseCancels(result.stdout(), batch);
  }

  /** One line per job: its id, its run's marker, its run's {@code cancel-requested} file, tab-separated. */
  byte[] cancelInput(List<Cancel> batch) {
    StringBuilder in = new StringBuilder();
    for (Cancel c : batch) {
      String marker = c.run().marker();
      String file = runDirectory(c.run()).cancelRequested();
      if ((marker + file).matches("(?s).*[\\t\\n].*")) {
        throw new IllegalArgumentException("a tab or newline in " + marker + " or " + file);
      }
      in.append(c.jobId()).append('\t').append(marker).append('\t').append(file).append('\n');
    }
    return in.toString().getBytes(StandardCharsets.UTF_8);
  }

  static Map<Cancel, String> parseCancels(String output, List<Cancel> batch) {
    Map<String, String> byId = new HashMap<>();
    output.lines().map(String::strip).filter(l -> l.matches("\\d+ .+")).forEach(l -> byId.put(l.substring(0, l.indexOf(' ')),
        l.substring(l.indexOf(' ') + 1)));
    Map<Cancel, String> outcomes = new HashMap<>();
    batch.stream().filter(c -> byId.containsKey(c.jobId())).forEach(c -> outcomes.put(c, byId.get(c.jobId())));
    return outcomes;
  }

  @Override
  public JobProbe jobProbe() {
    return PROBE;
  }

  /** The job id recorded in the run directory, else a job with the run's name and marker. */
  Optional<String> findJob(RunRef run) throws HostException {
    ExecResult result = transport.exec(lookupCommand(run), COMMAND_TIMEOUT)
        .orThrow("looking for an existing job of " + run + " on " + transport.describe());
    return parseLookup(result.stdout(), run);
  }

  static Optional<String> parseLookup(String output, RunRef run) {
    List<String> lines = output.lines().toList();
    if (!lines.isEmpty() && lines.get(0).startsWith("job-id ")) {
      String id = lines.get(0).substring("job-id ".length()).strip();
      if (id.matches("\\d+")) {
        return Optional.of(id);
      }
    }
    List<SlurmJob> matches = lines.stream()
        .map(SlurmJob::parseSqueueLine).flatMap(Optional::stream)
        .filter(job -> run.marker().equals(job.comment()))
        .toList();
    if (matches.size() > 1) {
      log.warn("run {} has {} Slurm jobs; using {}", run, matches.size(), matches.get(0).jobId());
    }
    return matches.stream().map(SlurmJob::jobId).findFirst();
  }

  /**
   * Its job-id file is read by the run-file reader's rule ({@link RunFileReader}); one that is
   * refused (a FIFO made by the job) is said on stderr and the job is looked up by name and marker.
   */
  String lookupCommand(RunRef run) {
    RunDirectory dir = runDirectory(run);
    return RunFileReader.BASH
        + "srt_read_run_line " + Shell.quote(dir.jobId()) + " 64 || [ -z \"$SRT_WHY\" ] || printf '%s\\n' \"$SRT_WHY\" >&2\n"
        + "if [ -n \"$REPLY\" ]; then printf 'job-id %s\\n' \"$REPLY\"; exit 0; fi\n"
        + Shell.join(List.of("squeue", "--states=all", "-h", "--name=" + run.jobName(),
            "-o", SlurmJob.SQUEUE_FORMAT));
  }

  /**
   * Prints {@code existing <id>} when the run has a job (its job-id file, else a job with its name
   * whose comment is its marker); else installs from stdin {@code secretBytes} of {@code
   * secret.env} (none when 0), {@code planBytes} of {@code plan.json} and {@code recordBytes} of
   * {@code record.json} (none when -1) and the rest as the script, each atomically, then submits and
   * prints the job id. {@code head -c} reads exactly its count from a pipe, so each file gets its
   * own bytes.
   */
  String submitCommand(RunRef run, int secretBytes, int planBytes, int recordBytes) {
    return submitCommand(run, secretBytes, planBytes, recordBytes, null);
  }

  /** {@code after}: the job this one waits for, whatever its end ({@code --dependency=afterany}); null for none. */
  String submitCommand(RunRef run, int secretBytes, int planBytes, int recordBytes, RunFiles.After after) {
    RunDirectory dir = runDirectory(run);
    List<String> argv = new ArrayList<>(RunEnvironment.ENV_PREFIX);
    argv.add("SRT_RUN_ID=" + run.runId());
    argv.addAll(List.of("sbatch", "--parsable"));
    if (after != null) {
      argv.add("--dependency=afterany:" + after.jobId());
    }
    argv.addAll(List.of(
        // Slurm requeues a batch job whose node failed: its script would run again in the same
        // run directory, after the run reported its end. A run is never repeated behind our back.
        "--no-requeue",
        "--job-name=" + run.jobName(),
        "--comment=" + run.marker(),
        "--chdir=" + dir.path(),
        // sbatch expands %j and friends in --output; %% is a literal %.
        "--output=" + dir.scriptLog().replace("%", "%%"),
        dir.script()));
    String sbatch = Shell.join(argv);
    String jobIdFile = Shell.quote(dir.jobId());
    return "set -e\n"
        + RunFileReader.BASH
        // A job-id that is there but refused (a FIFO, a link: made by a job of this run) means the
        // run was submitted once: it is not submitted again, and the reason is the error.
        + "rc=0\n"
        + "srt_read_run_line " + jobIdFile + " 64 || rc=$?\n"
        + "if [ \"$rc\" -eq 2 ]; then printf '%s\\n' \"$SRT_WHY\" >&2; exit 3; fi\n"
        + "recorded=$REPLY\n"
        + "case $recorded in ''|*[!0-9]*) ;; *) printf 'existing %s\\n' \"$recorded\"; exit 0 ;; esac\n"
        // A job submitted without its job-id written (a crash in between) has its script in place:
        // without one, no job can be this run's and squeue is not asked. SQUEUE_FORMAT: the job
        // id first, the comment last.
        + "if [ -e " + Shell.quote(dir.script()) + " ]; then\n"
        + "  listed=$(" + Shell.join(List.of("squeue", "--states=all", "-h", "--name=" + run.jobName(), "-o", SlurmJob.SQUEUE_FORMAT)) + ")\n"
        + "  while IFS= read -r line; do\n"
        + "    if [ \"${line##*|}\" = " + Shell.quote(run.marker()) + " ]; then printf 'existing %s\\n' \"${line%%|*}\"; exit 0; fi\n"
        + "  done <<<\"$listed\"\n"
        + "fi\n"
        + RunDirectorySetup.runDirectory(dir)
        + (secretBytes > 0 ? "(\numask 077\n" + RunDirectorySetup.installBytes(dir.secretEnv(), secretBytes) + ")\n" : "")
        + (planBytes >= 0 ? RunDirectorySetup.installBytes(dir.plan(), planBytes) : "")
        + (recordBytes >= 0 ? RunDirectorySetup.installBytes(dir.record(), recordBytes) : "")
        + RunDirectorySetup.installRest(dir.script())
        + "out=$(" + sbatch + ")\n"
        + "id=${out%%;*}\n" // --parsable prints <id> or <id>;<cluster>
        + "printf '%s\\n' \"$id\" >" + Shell.quote(dir.jobId() + ".tmp") + "\n"
        + "mv -f -- " + Shell.quote(dir.jobId() + ".tmp") + " " + jobIdFile + "\n"
        + "printf '%s\\n' \"$id\"\n";
  }

  /**
   * Cancels the jobs named on stdin ({@link #cancelInput}), each only if its comment is its run's
   * marker, so a stale or mistyped job id cannot cancel someone else's job, after writing the
   * run's {@code cancel-requested} marker: one {@code squeue} and one {@code scancel} for all.
   * Prints {@code <id> gone}, {@code <id> cancelled} or {@code <id> foreign <comment>} per job.
   */
  static String cancelCommand() {
    return """
        declare -A want=() file=() comment=()
        ids=''
        while IFS=$'\\t' read -r id marker path; do
          case $id in ''|*[!0-9]*) continue ;; esac
          want[$id]=$marker file[$id]=$path ids+=${ids:+,}$id
        done
        [ -n "$ids" ] || exit 0
        if ! listed=$(squeue --states=all -h -j "$ids" -o '%i|%k' 2>&1); then
          case $listed in *'Invalid job id'*) listed='' ;; *) printf 'squeue: %s\\n' "$listed" >&2; exit 1 ;; esac
        fi
        while IFS= read -r line; do
          case $line in [0-9]*'|'*) comment[${line%%|*}]=${line#*|} ;; esac
        done <<<"$listed"
        cancel=()
        for id in "${!want[@]}"; do
          if [ -z "${comment[$id]-}" ]; then printf '%s gone\\n' "$id"; continue; fi
          if [ "${comment[$id]}" != "${want[$id]}" ]; then printf '%s foreign %s\\n' "$id" "${comment[$id]}"; continue; fi
          # The job's script reads the marker on exit: a cancel stays a cancel even if its TERM trap fails.
          : >"${file[$id]}" 2>/dev/null || true
          cancel+=("$id")
        done
        [ "${#cancel[@]}" -gt 0 ] || exit 0
        if ! out=$(scancel "${cancel[@]}" 2>&1); then
          while IFS= read -r line; do
            case $line in ''|*'Invalid job id'*|*'already completing or completed'*) ;;
              *) printf 'scancel: %s\\n' "$out" >&2; exit 1 ;;
            esac
          done <<<"$out"
        fi
        printf '%s cancelled\\n' "${cancel[@]}"
        """;
  }

  private static String lastLine(String text) {
    List<String> lines = text.strip().lines().toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
  }

  /**
   * One {@code squeue} for all the runs' jobs (it lists jobs until MinJobAge after they end), and
   * for the jobs it no longer lists one {@code sacct}, when accounting answers (it often is not
   * enabled, and then says so and exits 1). Job ids come from the caller or the run directory's
   * {@code job-id}, read with builtins; only all-digit ids reach the commands.
   */
  static final JobProbe PROBE = new JobProbe() {
    @Override
    public String bashFunction() {
      return """
          probe_jobs() {
            local n id ids='' missing='' out rc line err='' arc=0 aout=''
            local -A listed=() accounted=()
            for n in "${!run_dir[@]}"; do
              id=${job_id[n]}
              if [ -z "$id" ]; then
                first_digits "$n" "${run_dir[n]}/job-id" 64
                id=$REPLY
              fi
              job_id[n]=$id
              field "$n" job-id "$id"
              case $id in ''|*[!0-9]*) ;; *) ids+=${ids:+,}$id ;; esac
            done
            [ -n "$ids" ] || return 0
            out=$(squeue --states=all -h -j "$ids" -O %s 2>&1); rc=$?
            while IFS= read -r line; do
              case $line in
                '') ;;
                [0-9]*'|'*) listed[${line%%%%|*}]=$line ;;
                *) err+=${err:+ }$line ;;
              esac
            done <<<"$out"
            # squeue asked for one unknown job alone fails; that job is simply not listed.
            case $err in *'Invalid job id'*) rc=0 ;; esac
            for n in "${!run_dir[@]}"; do
              id=${job_id[n]}
              case $id in ''|*[!0-9]*) continue ;; esac
              if [ -z "${listed[$id]+x}" ]; then missing+=${missing:+,}$id; fi
            done
            if [ "$rc" -eq 0 ] && [ -n "$missing" ] && command -v sacct >/dev/null 2>&1; then
              aout=$(sacct -n -P -X -j "$missing" -o %s 2>&1); arc=$?
              if [ "$arc" -eq 0 ]; then
                while IFS= read -r line; do
                  case $line in [0-9]*'|'*) accounted[${line%%%%|*}]=$line ;; esac
                done <<<"$aout"
              fi
            elif [ -n "$missing" ]; then
              arc=127 aout='sacct not asked'
            fi
            for n in "${!run_dir[@]}"; do
              id=${job_id[n]}
              case $id in ''|*[!0-9]*) continue ;; esac
              [ ! -e "${run_dir[n]}/cancel-requested" ] || field "$n" cancel-requested 1
              field "$n" squeue-rc "$rc"
              if [ "$rc" -ne 0 ]; then
                field "$n" squeue-error "${err:0:500}"
              elif [ -n "${listed[$id]+x}" ]; then
                field "$n" squeue "${listed[$id]}"
              elif [ "$arc" -eq 0 ]; then
                field "$n" sacct-rc 0; field "$n" sacct "${accounted[$id]-}"
              else
                field "$n" sacct-rc "$arc"; field "$n" sacct "${aout:0:500}"
              fi
            done
          }
          """.formatted(Shell.quote(SlurmJob.SQUEUE_STATUS_FORMAT), Shell.quote(SlurmJob.SACCT_FIELDS));
    }

    @Override
    public JobStatus parse(Map<String, String> fields) {
      String jobId = fields.getOrDefault("job-id", "");
      if (jobId.isEmpty()) {
        return new JobStatus(JobState.NOT_FOUND, "no Slurm job id recorded for this run", null);
      }
      String rc = fields.get("squeue-rc");
      if (rc != null && !rc.equals("0")) {
        return new JobStatus(JobState.UNKNOWN, "squeue failed: " + firstLine(fields.getOrDefault("squeue-error", "")), null);
      }
      boolean cancelRequested = "1".equals(fields.get("cancel-requested"));
      String listed = fields.get("squeue");
      if (listed != null) {
        return SlurmJob.parseSqueueStatus(listed).map(job -> job.status().withCancelRequested(cancelRequested))
            .orElse(new JobStatus(JobState.UNKNOWN, "unreadable squeue output: " + firstLine(listed), null));
      }
      if ("0".equals(fields.get("sacct-rc"))) {
        Optional<SlurmJob> accounted = fields.getOrDefault("sacct", "").lines()
            .map(SlurmJob::parseSacctLine).flatMap(Optional::stream)
            .filter(job -> job.jobId().equals(jobId))
            .reduce((first, second) -> second);
        if (accounted.isPresent()) {
          return accounted.get().status().withCancelRequested(cancelRequested);
        }
      }
      return new JobStatus(JobState.NOT_FOUND, "Slurm no longer knows job " + jobId, null);
    }

    private String firstLine(String text) {
      return ExecResult.abbreviate(text.strip().lines().findFirst().orElse(""), 300);
    }
  };
}
