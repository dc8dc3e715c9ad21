package dev.srt.operator.host;

/**
 * What a submission writes into the run directory: the script, the plan it was rendered from
 * ({@code plan.json}; null to write none), the run's record ({@code record.json}: its identity,
 * hashes and the specs it was submitted with; null to write none) and the secret variables
 * ({@code secret.env}, 0600); and the run it must wait for, if any ({@code after}).
 */
public record RunFiles(String script, String plan, String record, SecretEnvFile secrets, After after) {
  /**
   * The run this one starts after, whatever its outcome: Slurm {@code --dependency=afterany} on
   * its job; a direct host waits until its script has ended. How a detached comparison keeps its
   * order on the host with nobody watching.
   */
  public record After(RunRef run, String jobId) {
    public After {
      java.util.Objects.requireNonNull(run, "run");
      if (jobId == null || !jobId.matches("\\d{1,20}")) {
        throw new IllegalArgumentException("not a job id: " + jobId);
      }
    }
  }

  public RunFiles {
    java.util.Objects.requireNonNull(script, "script");
    secrets = secrets == null ? SecretEnvFile.NONE : secrets;
  }

  public RunFiles(String script, String plan, String record, SecretEnvFile secrets) {
    this(script, plan, record, secrets, null);
  }

  public RunFiles(String script, String plan, SecretEnvFile secrets) {
    this(script, plan, null, secrets, null);
  }

  /** These files, submitted to start after {@code predecessor} (null: at once). */
  public RunFiles after(After predecessor) {
    return new RunFiles(script, plan, record, secrets, predecessor);
  }

  public static RunFiles script(String script) {
    return new RunFiles(script, null, null, SecretEnvFile.NONE, null);
  }
}
