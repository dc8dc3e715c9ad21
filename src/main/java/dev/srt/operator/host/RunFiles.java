package dev.srt.operator.host;

/**
 * What a submission writes into the run directory: the script, the plan it was rendered from
 * ({@code plan.json}, the run's record of what was submitted; null to write none) and the secret
 * variables ({@code secret.env}, 0600).
 */
public record RunFiles(String script, String plan, SecretEnvFile secrets) {
  public RunFiles {
    java.util.Objects.requireNonNull(script, "script");
    secrets = secrets == null ? SecretEnvFile.NONE : secrets;
  }

  public static RunFiles script(String script) {
    return new RunFiles(script, null, SecretEnvFile.NONE);
  }
}
