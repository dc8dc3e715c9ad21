package dev.srt.operator.reconcile;

import dev.srt.operator.testinfra.TestHosts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * An sshd of the test's own, on a free loopback port, that the test may stop and start again:
 * the shared one of {@code .ci/start-sshd.sh} (port 2222) serves other tests. Same host key,
 * authorized key and settings as that one ({@code /root/.srt-test}); its known_hosts is the
 * shared one's with this port. Runs in the foreground ({@code -D}), so stopping it means ending
 * the listener and every session it forked.
 */
final class PrivateSshd implements AutoCloseable {
  private final Path dir;
  private final Path config;
  private final int port;
  private Process listener;

  PrivateSshd(TestHosts.SshTarget shared) throws IOException {
    dir = Files.createTempDirectory(Path.of("/tmp"), "srt-private-sshd-");
    try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Path state = shared.keyFile().getParent();
    config = dir.resolve("sshd_config");
    Files.writeString(config, Files.readString(state.resolve("sshd_config"))
        .replaceAll("(?m)^Port .*$", "Port " + port)
        .replaceAll("(?m)^PidFile .*$", "PidFile " + dir.resolve("sshd.pid")));
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
    Files.writeString(knownHosts(), Files.readString(shared.knownHostsFile())
        .replace("[" + shared.host() + "]:" + shared.port() + " ", "[" + shared.host() + "]:" + port + " "));
  }

  int port() {
    return port;
  }

  Path knownHosts() {
    return dir.resolve("known_hosts");
  }

  /** The shared target with this sshd's port and known_hosts. */
  TestHosts.SshTarget target(TestHosts.SshTarget shared) {
    return new TestHosts.SshTarget(shared.host(), port, shared.user(), shared.keyFile(), knownHosts());
  }

  void start() throws IOException {
    if (listener != null && listener.isAlive()) {
      return;
    }
    listener = new ProcessBuilder(List.of("/usr/sbin/sshd", "-D", "-f", config.toString(), "-E", dir.resolve("sshd.log").toString()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.out").toFile()).start();
    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(this::listening);
  }

  /** Ends the listener and its sessions (the operator's open connection with them), as a stopped sshd does. */
  void stop() {
    if (listener == null) {
      return;
    }
    List<ProcessHandle> sessions = listener.descendants().toList();
    listener.destroyForcibly();
    sessions.forEach(ProcessHandle::destroyForcibly);
    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .until(() -> !listener.isAlive() && sessions.stream().noneMatch(ProcessHandle::isAlive) && !listening());
    listener = null;
  }

  private boolean listening() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    stop();
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
