package dev.srt.operator.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Minimal reader of /root/.srt-test/env (written by .ci/start-sshd.sh and .ci/start-slurm.sh).
 * Stand-in for dev.srt.operator.testinfra.TestHosts until that branch is merged: a missing
 * service skips the test, or fails it when SRT_E2E_REQUIRED=1.
 */
final class HostTestEnv {
  private static final Path DEFAULT_FILE = Path.of("/root/.srt-test/env");

  private HostTestEnv() {}

  /** The test sshd's connection settings (skips or fails the test if it is not set up). */
  static SshConfig ssh() {
    Map<String, String> env = load();
    String host = env.get("SRT_TEST_SSH_HOST");
    require(host != null, "the test sshd is not set up (run .ci/start-sshd.sh)");
    try {
      return SshConfig.withKeyFiles(host, Integer.parseInt(env.getOrDefault("SRT_TEST_SSH_PORT", "22")),
          env.getOrDefault("SRT_TEST_SSH_USER", "root"), Path.of(env.get("SRT_TEST_SSH_KEY")),
          Path.of(env.get("SRT_TEST_SSH_KNOWN_HOSTS")), false, Duration.ofSeconds(10), Duration.ofSeconds(5));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the test SSH key or known_hosts", e);
    }
  }

  /** Skips (or fails) the test unless the test Slurm is up; Slurm is reached over the test sshd. */
  static void requireSlurm() {
    require("1".equals(load().get("SRT_TEST_SLURM")), "the test Slurm is not set up (run .ci/start-slurm.sh)");
  }

  private static void require(boolean available, String problem) {
    if ("1".equals(System.getenv("SRT_E2E_REQUIRED"))) {
      Assertions.assertTrue(available, problem + " and SRT_E2E_REQUIRED=1");
    } else {
      Assumptions.assumeTrue(available, problem);
    }
  }

  private static Map<String, String> load() {
    String override = System.getenv("SRT_TEST_ENV");
    Path file = override == null || override.isBlank() ? DEFAULT_FILE : Path.of(override);
    Map<String, String> values = new HashMap<>();
    if (!Files.isRegularFile(file)) {
      return values;
    }
    try {
      for (String line : Files.readAllLines(file)) {
        int eq = line.indexOf('=');
        if (eq > 0 && !line.startsWith("#")) {
          values.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return values;
  }
}
