package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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

  private final Transport transport;
  private final String workDir;

  public SlurmBackend(Transport transport, String workDir) {
    this.transport = transport;
    this.workDir = workDir;
  }

  @Override
  public Transport transport() {
    return transport;
  }

  @Override
  public RunDirectory runDirectory(RunRef run) {
    return RunDirectory.of(run, workDir, RunDirectory.SLURM_SCRIPT);
  }

  @Override
  public Submission submit(RunRef run, RunFiles files) throws HostException {
    String script = files.script();
    Optional<String> existing = findJob(run);
    if (existing.isPresent()) {
      log.info("{}: run {} already has Slurm job {}", transport.describe(), run, existing.get());
      return new Submission(existing.get(), true);
    }
    SecretEnvWriter.write(transport, runDirectory(run), run, files.secrets());
    SecretEnvWriter.writePlan(transport, runDirectory(run), run, files.plan());
    ExecResult result = transport.exec(submitCommand(run), script.getBytes(StandardCharsets.UTF_8), COMMAND_TIMEOUT)
        .orThrow("submitting " + run + " on " + transport.describe());
    String jobId = lastLine(result.stdout());
    if (!jobId.matches("\\d+")) {
      throw new HostException(HostException.Kind.COMMAND_FAILED,
          transport.describe() + ": sbatch printed no job id: " + ExecResult.abbreviate(result.stdout(), 500));
    }
    log.info("{}: submitted run {} as Slurm job {}", transport.describe(), run, jobId);
    return new Submission(jobId, false);
  }

  /** Without a job id, the run's job is looked up as by {@link #submit} (job-id file, then name and marker). */
  @Override
  public void cancel(RunRef run, String jobId) throws HostException {
    String id = jobId != null ? jobId : findJob(run).orElse(null);
    if (id == null) {
      log.info("{}: run {} has no Slurm job to cancel", transport.describe(), run);
      return;
    }
    ExecResult result = transport.exec(cancelCommand(run, id), COMMAND_TIMEOUT)
        .orThrow("cancelling " + run + " on " + transport.describe());
    String outcome = lastLine(result.stdout());
    if (outcome.startsWith("foreign ")) {
      throw new HostException(HostException.Kind.COMMAND_FAILED, transport.describe() + ": job " + id
          + " has comment '" + outcome.substring("foreign ".length()) + "', not run " + run + "'s: not cancelled");
    }
    log.info("{}: cancel of run {} (job {}): {}", transport.describe(), run, id, outcome);
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

  String lookupCommand(RunRef run) {
    RunDirectory dir = runDirectory(run);
    return "if [ -s " + Shell.quote(dir.jobId()) + " ]; then printf 'job-id '; head -n 1 -- "
        + Shell.quote(dir.jobId()) + "; exit 0; fi\n"
        + Shell.join(List.of("squeue", "--states=all", "-h", "--name=" + run.jobName(),
            "-o", SlurmJob.SQUEUE_FORMAT));
  }

  String submitCommand(RunRef run) {
    RunDirectory dir = runDirectory(run);
    List<String> argv = new ArrayList<>(RunEnvironment.ENV_PREFIX);
    argv.add("SRT_RUN_ID=" + run.runId());
    argv.addAll(List.of("sbatch", "--parsable",
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
        + RunDirectorySetup.fromStdin(dir)
        + "out=$(" + sbatch + ")\n"
        + "id=${out%%;*}\n" // --parsable prints <id> or <id>;<cluster>
        + "printf '%s\\n' \"$id\" >" + Shell.quote(dir.jobId() + ".tmp") + "\n"
        + "mv -f -- " + Shell.quote(dir.jobId() + ".tmp") + " " + jobIdFile + "\n"
        + "printf '%s\\n' \"$id\"\n";
  }

  /**
   * Cancels only a job whose comment is the run's marker, so a stale or mistyped job id cannot
   * cancel someone else's job, after writing the run's {@code cancel-requested} marker. Prints
   * {@code gone}, {@code cancelled} or {@code foreign <comment>}.
   */
  String cancelCommand(RunRef run, String jobId) {
    if (!jobId.matches("\\d+")) {
      throw new IllegalArgumentException("not a Slurm job id: " + jobId);
    }
    return "id=" + Shell.quote(jobId) + "\n"
        + "if ! comment=$(squeue --states=all -h -j \"$id\" -o %k 2>&1); then\n"
        + "  case $comment in *'Invalid job id'*) echo gone; exit 0 ;; esac\n"
        + "  printf 'squeue: %s\\n' \"$comment\" >&2; exit 1\n"
        + "fi\n"
        + "[ -n \"$comment\" ] || { echo gone; exit 0; }\n"
        + "[ \"$comment\" = " + Shell.quote(run.marker()) + " ] || { printf 'foreign %s\\n' \"$comment\"; exit 0; }\n"
        // The job's script reads the marker on exit: a cancel stays a cancel even if its TERM trap fails.
        + ": >" + Shell.quote(runDirectory(run).cancelRequested()) + " 2>/dev/null || true\n"
        + "if ! out=$(scancel \"$id\" 2>&1); then\n"
        + "  case $out in *'Invalid job id'*|*'already completing or completed'*) ;;\n"
        + "    *) printf 'scancel: %s\\n' \"$out\" >&2; exit 1 ;; esac\n"
        + "fi\n"
        + "echo cancelled\n";
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
                first_digits "${run_dir[n]}/job-id" 64
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
