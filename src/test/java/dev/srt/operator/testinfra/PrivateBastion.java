package dev.srt.operator.testinfra;

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
 * A bastion of the test's own, which it may stop and start again: the shared one of
 * {@code .ci/start-bastion.sh} (its config, host key and /etc/hosts, where the test sshd is
 * {@code srt-login}) on a free loopback port, in a mount namespace of its own, in the foreground.
 * Its known_hosts is the shared bastion's with this port.
 */
public final class PrivateBastion implements AutoCloseable {
  private final Path dir;
  private final Path config;
  private final Path hosts;
  private final int port;
  private final TestHosts.Bastion shared;
  private Process listener;

  public PrivateBastion(TestHosts.Bastion shared) throws IOException {
    this.shared = shared;
    dir = Files.createTempDirectory(Path.of("/tmp"), "srt-private-bastion-");
    try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    Path state = shared.knownHostsFile().getParent();
    hosts = state.resolve("hosts");
    config = dir.resolve("sshd_config");
    Files.writeString(config, Files.readString(state.resolve("sshd_config"))
        .replaceAll("(?m)^Port .*$", "Port " + port)
        .replaceAll("(?m)^PidFile .*$", "PidFile " + dir.resolve("sshd.pid")));
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
    Files.writeString(knownHosts(), Files.readString(shared.knownHostsFile())
        .replace("[" + shared.host() + "]:" + shared.port() + " ", "[" + shared.host() + "]:" + port + " "));
  }

  public String host() {
    return shared.host();
  }

  public int port() {
    return port;
  }

  /** This bastion's key and the test sshd's (as {@code srt-login}). */
  public Path knownHosts() {
    return dir.resolve("known_hosts");
  }

  public void start() throws IOException {
    if (listener != null && listener.isAlive()) {
      return;
    }
    listener = new ProcessBuilder(List.of("unshare", "--mount", "--propagation", "private", "/bin/bash", "-c",
        "mount --bind \"$1\" /etc/hosts && exec /usr/sbin/sshd -D -f \"$2\" -E \"$3\"", "srt-bastion",
        hosts.toString(), config.toString(), dir.resolve("sshd.log").toString()))
        .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.out").toFile()).start();
    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(this::listening);
  }

  /** Ends the listener and every session it forked (the connections through it), as a bastion going down. */
  public void stop() {
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
      s.connect(new InetSocketAddress(shared.host(), port), 200);
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
