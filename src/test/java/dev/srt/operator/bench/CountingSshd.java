package dev.srt.operator.bench;

import dev.srt.operator.testinfra.TestHosts;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's own sshd: the test sshd's host key and authorized keys on a free loopback port,
 * logging at VERBOSE to a file of its own, where OpenSSH writes one {@code Starting session:
 * command} line per execution, one {@code Close session} line when it ends and one {@code Accepted
 * publickey} line per connection. Other users of the shared test sshd never reach this one, so
 * every line is the operator's.
 */
final class CountingSshd implements AutoCloseable {
  final int port;
  final Path log;
  final Path knownHosts;
  private final Process process;

  /** What the log says so far. */
  record Counts(int connections, int started, int closed) {
    int inFlight() {
      return started - closed;
    }
  }

  CountingSshd(Path dir) throws IOException, InterruptedException {
    TestHosts.SshTarget shared = TestHosts.ssh();
    Path state = shared.keyFile().getParent();
    port = freePort();
    log = dir.resolve("sshd.log");
    knownHosts = dir.resolve("known_hosts");
    String hostKey = Files.readString(state.resolve("ssh_host_ed25519_key.pub")).strip().split("\\s+", 3)[0]
        + " " + Files.readString(state.resolve("ssh_host_ed25519_key.pub")).strip().split("\\s+", 3)[1];
    Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + hostKey + "\n");
    Path config = dir.resolve("sshd_config");
    Files.write(config, List.of(
        "Port " + port,
        "ListenAddress 127.0.0.1",
        "HostKey " + state.resolve("ssh_host_ed25519_key"),
        "PidFile " + dir.resolve("sshd.pid"),
        "AuthorizedKeysFile " + state.resolve("authorized_keys"),
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        "PermitRootLogin prohibit-password",
        "UsePAM no",
        "PrintMotd no",
        "MaxSessions 64",
        "LogLevel VERBOSE"));
    // -D: stays in the foreground as our child (stopped by close()); -E: its own log file.
    process = new ProcessBuilder("/usr/sbin/sshd", "-D", "-f", config.toString(), "-E", log.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.out").toFile()).start();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    while (!listening()) {
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        throw new IOException("the benchmark's sshd did not start: " + Files.readString(dir.resolve("sshd.out")));
      }
      Thread.sleep(50);
    }
  }

  private boolean listening() {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  Counts counts() throws IOException {
    int connections = 0;
    int started = 0;
    int closed = 0;
    for (String line : Files.readAllLines(log)) {
      if (line.contains("Accepted publickey for ")) {
        connections++;
      } else if (line.contains("Starting session: command ")) {
        started++;
      } else if (line.contains("Close session: ")) {
        closed++;
      }
    }
    return new Counts(connections, started, closed);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
