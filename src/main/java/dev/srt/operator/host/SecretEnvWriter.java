package dev.srt.operator.host;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a run's companion files before its job starts (both backends): {@code secret.env}
 * (logging names only) and {@code plan.json}, each from a command's stdin.
 */
final class SecretEnvWriter {
  private static final Logger log = LoggerFactory.getLogger(SecretEnvWriter.class);
  static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

  private SecretEnvWriter() {}

  static void write(Transport transport, RunDirectory dir, RunRef run, SecretEnvFile secrets) throws HostException {
    if (secrets.isEmpty()) {
      return;
    }
    transport.exec(RunDirectorySetup.secretEnvFromStdin(dir), secrets.content(), COMMAND_TIMEOUT)
        .orThrow("writing " + dir.secretEnv() + " of " + run + " on " + transport.describe());
    log.info("{}: wrote the secret variables {} of run {}", transport.describe(), secrets.names(), run);
  }

  static void writePlan(Transport transport, RunDirectory dir, RunRef run, String plan) throws HostException {
    if (plan == null) {
      return;
    }
    transport.exec(RunDirectorySetup.planFromStdin(dir), plan.getBytes(java.nio.charset.StandardCharsets.UTF_8), COMMAND_TIMEOUT)
        .orThrow("writing " + dir.plan() + " of " + run + " on " + transport.describe());
  }
}
