package dev.srt.operator.testinfra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** Debian's {@code ssh-agent} in the foreground on a socket of the test's, and {@code ssh-add}. */
public final class SshAgent implements AutoCloseable {
  private final Process agent;
  private final Path socket;

  private SshAgent(Process agent, Path socket) {
    this.agent = agent;
    this.socket = socket;
  }

  /** Starts an agent with no key, listening on {@code <dir>/agent.sock}. */
  public static SshAgent start(Path dir) throws IOException {
    TestHosts.require(Files.isExecutable(Path.of("/usr/bin/ssh-agent")) ? null : "/usr/bin/ssh-agent is not installed",
        "install openssh-client (.ci/install-deps.sh)");
    Path socket = dir.resolve("agent.sock");
    Process p = new ProcessBuilder("/usr/bin/ssh-agent", "-D", "-a", socket.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("agent.log").toFile()).start();
    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> Files.exists(socket) || !p.isAlive());
    assertThat(p.isAlive()).as("ssh-agent runs (see %s)", dir.resolve("agent.log")).isTrue();
    return new SshAgent(p, socket);
  }

  /** The agent's socket: what {@code SSH_AUTH_SOCK} names. */
  public Path socket() {
    return socket;
  }

  /** {@code ssh-add KEY} (a key without passphrase). */
  public void add(Path key) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(List.of("/usr/bin/ssh-add", key.toString())).redirectErrorStream(true);
    pb.environment().put("SSH_AUTH_SOCK", socket.toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0).as("ssh-add %s: %s", key, out).isTrue();
  }

  @Override
  public void close() throws IOException {
    agent.destroy();
    try {
      agent.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Files.deleteIfExists(socket);
  }
}
