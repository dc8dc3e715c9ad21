package dev.srt.operator.host;

/**
 * The files of one run directory on the host, as laid down in docs/run-protocol.md. Paths are
 * host paths (POSIX strings), not local ones.
 *
 * @param path the run directory, {@code <workDir>/<namespace>/<comparison>/<arm>/<runId>}
 * @param scriptName {@link #SLURM_SCRIPT} or {@link #DIRECT_SCRIPT}
 */
public record RunDirectory(String path, String scriptName) {
  public static final String SLURM_SCRIPT = "job.sbatch";
  public static final String DIRECT_SCRIPT = "run.sh";

  public static RunDirectory of(RunRef run, String workDir, String scriptName) {
    return new RunDirectory(run.runDir(workDir), scriptName);
  }

  public String script() {
    return file(scriptName);
  }

  /** The plan the script was rendered from, as JSON: what was submitted (docs/run-protocol.md). */
  public String plan() {
    return path + "/plan.json";
  }

  /** The run's record: its identity, the hashes and the specs it was submitted with (docs/run-protocol.md). */
  public String record() {
    return path + "/record.json";
  }

  /** The secret variables' values (mode 0600), written just before the run starts; the script sources it. */
  public String secretEnv() {
    return file(SecretEnvFile.FILE_NAME);
  }

  public String events() {
    return file("events.jsonl");
  }

  public String logs() {
    return file("logs");
  }

  /** The script's own output. */
  public String scriptLog() {
    return file("logs/script.log");
  }

  public String results() {
    return file("results");
  }

  /** Slurm job id, written by the submitter right after sbatch. */
  public String jobId() {
    return file("job-id");
  }

  /** Process id of the detached script's wrapper (direct): the leader of its session and group. */
  public String pid() {
    return file("pid");
  }

  /** Process group of the detached script (direct). */
  public String pgid() {
    return file("pgid");
  }

  /** One process group id per line, appended by the script for each group it starts (direct). */
  public String pgids() {
    return file("pgids");
  }

  /** Exit status of the script (direct), written when it ends by itself or by a signal it survived. */
  public String exitCode() {
    return file("exit-code");
  }

  /** Written by cancel before it signals anything, so a run killed hard still reads as cancelled. */
  public String cancelRequested() {
    return file("cancel-requested");
  }

  private String file(String name) {
    return path + "/" + name;
  }
}
