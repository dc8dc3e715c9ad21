package dev.srt.operator.host;

/**
 * What a submission writes into the run directory: the script, the plan it was rendered from
 * ({@code plan.json}; null to write none), the run's record ({@code record.json}: its identity,
 * hashes and the specs it was submitted with; null to write none) and the secret variables
 * ({@code secret.env}, 0600).
 */
public record RunFiles(String script, String plan, String record, SecretEnvFile secrets) {
  public RunFiles {
    java.util.Objects.requireNonNull(script, "script");
    secrets = secrets == null ? SecretEnvFile.NONE : secrets;
  }

  public RunFiles(String script, String plan, SecretEnvFile secrets) {
    this(script, plan, null, secrets);
  }

  public static RunFiles script(String script) {
    return new RunFiles(script, null, null, SecretEnvFile.NONE);
  }
}
