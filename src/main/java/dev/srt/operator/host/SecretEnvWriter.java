package dev.srt.operator.host;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a run's companion files before its job starts (both backends): {@code secret.env}
 * (logging names only), {@code plan.json} and {@code record.json}, each from a command's stdin.
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

  /** Writes {@code content} (when not null) to {@code file} of the run directory. */
  static void writeCompanion(Transport transport, RunDirectory dir, String file, RunRef run, String content) throws HostException {
    if (content == null) {
      return;
    }
    transport.exec(RunDirectorySetup.companionFromStdin(dir, file), content.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        COMMAND_TIMEOUT).orThrow("writing " + file + " of " + run + " on " + transport.describe());
  }
}
