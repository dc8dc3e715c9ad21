package dev.srt.operator.testinfra;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * An sshd of the test's own, on a free loopback port, that the test may stop and start again:
 * a copy of a shared one of {@code .ci/} (port 2222, or the bastion), which other tests use. Same
 * host key, authorized keys and settings as that one; its known_hosts is the shared one's with
 * this port. Runs in the foreground ({@code -D}), so stopping it means ending the listener and
 * every session it forked. The bastion's copy runs, as the bastion does, in a mount namespace
 * whose /etc/hosts names the test sshd {@code srt-login}.
 */
public final class PrivateSshd implements AutoCloseable {
  private final Path dir;
  private final Path config;
  private final Path hosts;
  private final String host;
  private final int port;
  private Process listener;

  private PrivateSshd(Path stateConfig, Path sharedKnownHosts, String host, int sharedPort, Path hosts) throws IOException {
    this.host = host;
    this.hosts = hosts;
    dir = Files.createTempDirectory(Path.of("/tmp"), "srt-private-sshd-");
    try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    config = dir.resolve("sshd_config");
    Files.writeString(config, Files.readString(stateConfig)
        .replaceAll("(?m)^Port .*$", "Port " + port)
        .replaceAll("(?m)^PidFile .*$", "PidFile " + dir.resolve("sshd.pid")));
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
    Files.writeString(knownHosts(), Files.readString(sharedKnownHosts)
        .replace("[" + host + "]:" + sharedPort + " ", "[" + host + "]:" + port + " "));
  }

  /** A copy of the test sshd of {@code .ci/start-sshd.sh}. */
  public static PrivateSshd of(TestHosts.SshTarget shared) throws IOException {
    return new PrivateSshd(shared.keyFile().getParent().resolve("sshd_config"), shared.knownHostsFile(), shared.host(),
        shared.port(), null);
  }

  /** A copy of the bastion of {@code .ci/start-bastion.sh}; its known_hosts also has the test sshd as {@code srt-login}. */
  public static PrivateSshd bastion(TestHosts.Bastion shared) throws IOException {
    Path state = shared.knownHostsFile().getParent();
    return new PrivateSshd(state.resolve("sshd_config"), shared.knownHostsFile(), shared.host(), shared.port(), state.resolve("hosts"));
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public Path knownHosts() {
    return dir.resolve("known_hosts");
  }

  /** The shared target with this sshd's port and known_hosts. */
  public TestHosts.SshTarget target(TestHosts.SshTarget shared) {
    return new TestHosts.SshTarget(shared.host(), port, shared.user(), shared.keyFile(), knownHosts());
  }

  public void start() throws IOException {
    if (listener != null && listener.isAlive()) {
      return;
    }
    List<String> sshd = List.of("/usr/sbin/sshd", "-D", "-f", config.toString(), "-E", dir.resolve("sshd.log").toString());
    List<String> command = new ArrayList<>();
    if (hosts != null) {
      command.addAll(List.of("unshare", "--mount", "--propagation", "private", "/bin/bash", "-c",
          "mount --bind \"$1\" /etc/hosts && shift && exec \"$@\"", "srt-bastion", hosts.toString()));
    }
    command.addAll(sshd);
    listener = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("sshd.out").toFile()).start();
    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(this::listening);
  }

  /** Ends the listener and its sessions (the connections through it), as a stopped sshd does. */
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
      s.connect(new InetSocketAddress(host, port), 200);
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
