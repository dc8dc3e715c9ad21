package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: "{@code logs --process NAME} follows a run-created symlink {@code logs/NAME.log ->
 * ../secret.env} and prints the secret". {@code logs} reads only a regular file of the run
 * directory's own {@code logs/}, checked on what it opened; run with real bash and coreutils.
 */
class LogsFollowNoSymlinkTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final String SECRET = "export HF_TOKEN=hf_the-secret-value";

  @TempDir Path work;
  Path run;
  LocalTransport transport = new LocalTransport();

  @BeforeEach
  void runDirectory() throws Exception {
    run = Files.createDirectories(work.resolve("default/cmp/arm/r1a2b3c4d"));
    Files.createDirectories(run.resolve("logs"));
    Files.writeString(run.resolve("secret.env"), SECRET + "\n");
    Files.writeString(run.resolve("logs/worker-0.log"), "line 1\nline 2\n");
  }

  @Test
  void aRegularLogIsRead() throws Exception {
    ExecResult r = RunLogs.tail(transport, run.toString(), "worker-0", 1, TIMEOUT);
    assertThat(r.succeeded()).as(r.stderr()).isTrue();
    assertThat(r.stdout()).isEqualTo("line 2\n");
    assertThat(RunLogs.list(transport, run.toString(), TIMEOUT).stdout()).isEqualTo("worker-0.log\n");
  }

  /** Reading {@code logs/<name>.log} fails, says why, and shows nothing of the secret. */
  private void refused(String name, String why) throws Exception {
    ExecResult r = RunLogs.tail(transport, run.toString(), name, 100, TIMEOUT);
    assertThat(r.succeeded()).isFalse();
    assertThat(r.stdout()).doesNotContain("hf_the-secret-value");
    assertThat(r.stderr()).contains(why);
  }

  @Test
  void theIssuesSymlinkIsNotFollowed() throws Exception {
    Files.createSymbolicLink(run.resolve("logs/router.log"), Path.of("../secret.env"));
    refused("router", "logs/router.log is not a regular file (a symbolic link): not read");
  }

  @Test
  void aHardLinkOrASymlinkedLogsDirectoryIsNotReadEither() throws Exception {
    Files.createLink(run.resolve("logs/sidecar-0.log"), run.resolve("secret.env"));
    refused("sidecar-0", "logs/sidecar-0.log is not a regular file of the run directory (a link?): not read");

    // logs/ itself swapped for a link to a directory outside the run.
    Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
    Files.writeString(elsewhere.resolve("worker-0.log"), SECRET + "\n");
    try (var logs = Files.list(run.resolve("logs"))) {
      for (Path p : logs.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(run.resolve("logs"));
    Files.createSymbolicLink(run.resolve("logs"), elsewhere);
    refused("worker-0", "the run's logs/ is not a directory of the run directory");
    assertThat(RunLogs.list(transport, run.toString(), TIMEOUT).succeeded()).isFalse();
  }

  @Test
  void aNameThatIsNotALogNameIsRefusedBeforeAnythingRuns() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunLogs.tail(transport, run.toString(), "../secret", 1, TIMEOUT))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
