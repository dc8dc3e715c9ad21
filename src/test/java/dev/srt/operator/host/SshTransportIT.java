package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.base.Shell;
import dev.srt.operator.testinfra.TestHosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SshTransport against the real test sshd (see .ci/start-sshd.sh). */
class SshTransportIT {
  private static final Duration T = Duration.ofSeconds(30);
  /** Prints the pid of the sshd process serving this connection (the first sshd above this shell). */
  private static final String SSHD_OF_THIS_CONNECTION = """
      p=$$
      while [ "$p" -gt 1 ]; do
        [ "$(cat /proc/$p/comm)" = sshd ] && { echo "$p"; exit 0; }
        stat=$(cat /proc/$p/stat); set -- ${stat##*) }; p=$2
      done
      exit 1
      """;

  private SshConfig config;
  private SshTransport ssh;

  @BeforeEach
  void connect() throws Exception {
    config = TestHosts.ssh().sshConfig();
    ssh = new SshTransport(config);
  }

  @AfterEach
  void close() {
    if (ssh != null) {
      ssh.close();
    }
  }

  private static SshConfig with(SshConfig c, byte[] key, byte[] knownHosts, boolean insecure) {
    return new SshConfig(c.host(), c.port(), c.user(), key, knownHosts, insecure, c.connectTimeout(), c.keepaliveInterval());
  }

  private static HostException.Kind kindOf(Throwable t) {
    return ((HostException) t).kind();
  }

  @Test
  void runsCommandsWithStdinAndReportsExitCodesAndStreams() throws Exception {
    ExecResult r = ssh.exec("cat; echo err >&2; exit 7", "from stdin\n".getBytes(StandardCharsets.UTF_8), T);
    assertThat(r).isEqualTo(new ExecResult(7, "from stdin\n", "err\n"));
    assertThat(ssh.exec("echo $BASH_VERSION | cut -d. -f1; cat", T).stdout()).matches("\\d+\n");
    assertThat(ssh.exec("kill -TERM $$", T).exitCode()).isEqualTo(143);
  }

  @Test
  void largeOutputArrivesWhole() throws Exception {
    ExecResult r = ssh.exec("head -c 6000000 /dev/zero | tr '\\0' x; head -c 3000000 /dev/zero | tr '\\0' y >&2", T);
    assertThat(r.stdout()).hasSize(6_000_000);
    assertThat(r.stderr()).hasSize(3_000_000);
  }

  @Test
  void aTimedOutCommandIsKilledOnTheHost() throws Exception {
    try (RemoteWorkDir dir = new RemoteWorkDir(ssh)) {
      String pids = Shell.quote(dir.path + "/pids");
      long start = System.nanoTime();
      assertThatThrownBy(() -> ssh.exec("sleep 300 & echo $! >" + pids + "; echo $$ >>" + pids + "; wait",
          Duration.ofSeconds(2)))
          .satisfies(e -> assertThat(kindOf(e)).isEqualTo(HostException.Kind.TIMEOUT));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
      Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
          assertThat(ssh.exec("for p in $(cat " + pids + "); do kill -0 $p 2>/dev/null && echo $p; done", T).stdout())
              .isEmpty());
      // The session survives a timed-out command.
      assertThat(ssh.exec("echo ok", T).stdout()).isEqualTo("ok\n");
      assertThat(ssh.connectionCount()).isEqualTo(1);
    }
  }

  @Test
  void manyCallsFromSeveralThreadsShareOneSession() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<String>> sshds = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        sshds.add(pool.submit(() -> ssh.exec(SSHD_OF_THIS_CONNECTION, T).orThrow("find sshd").stdout().strip()));
      }
      Set<String> distinct = new HashSet<>();
      for (Future<String> f : sshds) {
        distinct.add(f.get());
      }
      assertThat(distinct).hasSize(1);
      assertThat(ssh.connectionCount()).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void reconnectsAfterTheConnectionIsKilledOnTheHost() throws Exception {
    String sshd = ssh.exec(SSHD_OF_THIS_CONNECTION, T).orThrow("find sshd").stdout().strip();
    // Kill exactly that connection's sshd, from a second connection.
    try (SshTransport other = new SshTransport(config)) {
      other.exec("kill -9 " + Shell.quote(sshd), T).orThrow("kill sshd " + sshd);
    }
    ExecResult after = ssh.exec(SSHD_OF_THIS_CONNECTION, T);
    assertThat(after.exitCode()).isZero();
    assertThat(after.stdout().strip()).isNotEqualTo(sshd);
    assertThat(ssh.connectionCount()).isEqualTo(2);
  }

  @Test
  void aHostKeyThatDoesNotMatchIsRejected() throws Exception {
    Path pub = Path.of(System.getProperty("user.home"), ".srt-test", "id_ed25519.pub");
    String impostor = "[" + config.host() + "]:" + config.port() + " " + Files.readString(pub).strip() + "\n";
    try (SshTransport t = new SshTransport(with(config, config.privateKey(), impostor.getBytes(StandardCharsets.UTF_8), false))) {
      assertThatThrownBy(() -> t.exec("true", T)).satisfies(e -> {
        assertThat(kindOf(e)).isEqualTo(HostException.Kind.HOST_KEY);
        assertThat(e.getMessage()).contains(config.host());
      });
    }
    try (SshTransport t = new SshTransport(with(config, config.privateKey(), new byte[0], false))) {
      assertThatThrownBy(() -> t.exec("true", T)).satisfies(e -> assertThat(kindOf(e)).isEqualTo(HostException.Kind.HOST_KEY));
    }
  }

  @Test
  void skippingHostKeyVerificationWorksWhenExplicit() throws Exception {
    try (SshTransport t = new SshTransport(with(config, config.privateKey(), null, true))) {
      assertThat(t.exec("echo ok", T).stdout()).isEqualTo("ok\n");
      assertThat(t.describe()).contains("not verified");
    }
  }

  @Test
  void aKeyTheHostDoesNotKnowIsAnAuthFailure(@TempDir Path tmp) throws Exception {
    Path key = tmp.resolve("stranger");
    assertThat(new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString())
        .inheritIO().start().waitFor()).isZero();
    byte[] stranger = Files.readAllBytes(key);
    try (SshTransport t = new SshTransport(with(config, stranger, config.knownHosts(), false))) {
      assertThatThrownBy(() -> t.exec("true", T)).satisfies(e -> {
        assertThat(kindOf(e)).isEqualTo(HostException.Kind.AUTH);
        assertThat(e.getMessage()).doesNotContain(new String(stranger, StandardCharsets.US_ASCII).lines().skip(1).findFirst().orElseThrow());
      });
    }
  }

  @Test
  void anUnreachableHostFailsAfterBoundedAttempts() throws Exception {
    SshConfig closedPort = new SshConfig("127.0.0.1", 1, config.user(), config.privateKey(), config.knownHosts(),
        false, Duration.ofSeconds(2), Duration.ofSeconds(5));
    Backoff fast = new Backoff(Duration.ofMillis(50), Duration.ofMillis(200), 2.0, 0.2);
    try (SshTransport t = new SshTransport(closedPort, fast, 3, 2)) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> t.exec("true", T)).satisfies(e -> assertThat(kindOf(e)).isEqualTo(HostException.Kind.UNREACHABLE));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
      assertThat(t.connectionCount()).isZero();
    }
  }

  @Test
  void writeFileReplacesAtomicallyWithMode() throws Exception {
    try (RemoteWorkDir dir = new RemoteWorkDir(ssh)) {
      String path = dir.path + "/sub dir/it's.sh";
      ssh.writeFile(path, "#!/bin/bash\necho hi\n".getBytes(StandardCharsets.UTF_8), 0755, T);
      assertThat(ssh.exec("stat -c %a " + Shell.quote(path) + "; " + Shell.quote(path), T).stdout()).isEqualTo("755\nhi\n");
    }
  }

  @Test
  void aClosedTransportRefusesWork() {
    ssh.close();
    assertThatThrownBy(() -> ssh.exec("true", T)).satisfies(e -> assertThat(kindOf(e)).isEqualTo(HostException.Kind.IO));
  }
}
