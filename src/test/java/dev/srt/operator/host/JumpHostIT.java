package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.testinfra.SshAgent;
import dev.srt.operator.testinfra.TestHosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SshTransport through the test bastion ({@code .ci/start-bastion.sh}) to the test sshd, which
 * only the bastion knows as {@code srt-login}: the jump host resolves the name, one connection
 * serves every command, and passphrase-protected keys and an ssh-agent log in on both servers.
 */
class JumpHostIT {
  private static final Duration T = Duration.ofSeconds(30);

  private TestHosts.SshTarget ssh;
  private TestHosts.Bastion bastion;
  private byte[] knownHosts;

  @BeforeEach
  void hosts() throws Exception {
    ssh = TestHosts.ssh();
    bastion = TestHosts.bastion();
    knownHosts = Files.readAllBytes(bastion.knownHostsFile());
  }

  private SshConfig throughBastion(SshIdentity key) {
    SshEndpoint jump = new SshEndpoint(bastion.host(), bastion.port(), ssh.user(), key, knownHosts, false);
    SshEndpoint target = new SshEndpoint(bastion.target(), ssh.port(), ssh.user(), key, knownHosts, false);
    return new SshConfig(target, List.of(jump), Duration.ofSeconds(10), Duration.ofSeconds(5));
  }

  private SshIdentity plainKey() throws Exception {
    return new SshIdentity.PrivateKey("the private key " + ssh.keyFile(), Files.readAllBytes(ssh.keyFile()), null);
  }

  private SshIdentity passphraseKey(String passphrase) throws Exception {
    return new SshIdentity.PrivateKey("the private key " + bastion.passphraseKey(), Files.readAllBytes(bastion.passphraseKey()),
        passphrase.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theBastionResolvesTheTargetAndOneConnectionServesEveryCommand() throws Exception {
    try (SshTransport t = new SshTransport(throughBastion(plainKey()))) {
      assertThat(t.describe()).isEqualTo("ssh://root@" + bastion.target() + ":" + ssh.port() + " via ssh://root@"
          + bastion.host() + ":" + bastion.port());
      assertThat(t.exec("echo ok; cat; exit 3", "in\n".getBytes(StandardCharsets.UTF_8), T))
          .isEqualTo(new ExecResult(3, "ok\nin\n", ""));
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<ExecResult>> calls = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
          int n = i;
          calls.add(pool.submit(() -> t.exec("echo " + n, T)));
        }
        for (int i = 0; i < calls.size(); i++) {
          assertThat(calls.get(i).get().stdout()).isEqualTo(i + "\n");
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(t.connectionCount()).isEqualTo(1);
      assertThat(t.exec("head -c 3000000 /dev/zero | tr '\\0' x", T).stdout()).hasSize(3_000_000);
    }
    // Without the jump host the name resolves nowhere here.
    SshEndpoint direct = new SshEndpoint(bastion.target(), ssh.port(), ssh.user(), plainKey(), knownHosts, false);
    try (SshTransport t = new SshTransport(new SshConfig(direct, List.of(), Duration.ofSeconds(5), null), Backoff.reconnectDefault(),
        1, 1)) {
      assertThatThrownBy(() -> t.exec("true", T)).isInstanceOfSatisfying(HostException.class, e -> {
        assertThat(e.kind()).isEqualTo(HostException.Kind.UNREACHABLE);
        assertThat(e.getMessage()).contains("unknown host " + bastion.target());
      });
    }
  }

  @Test
  void aPassphraseProtectedKeyLogsInOnBothAndAWrongPassphraseNamesTheKey() throws Exception {
    try (SshTransport t = new SshTransport(throughBastion(passphraseKey(bastion.passphrase())))) {
      assertThat(t.exec("echo through", T).stdout()).isEqualTo("through\n");
    }
    assertThatThrownBy(() -> new SshTransport(throughBastion(passphraseKey("not-" + bastion.passphrase()))))
        .isInstanceOfSatisfying(HostException.class, e -> {
          assertThat(e.kind()).isEqualTo(HostException.Kind.AUTH);
          assertThat(e.getMessage()).isEqualTo("jump host ssh://root@" + bastion.host() + ":" + bastion.port()
              + ": wrong passphrase for the private key " + bastion.passphraseKey());
          assertThat(e.getCause()).isNull();
        });
    SshIdentity locked = new SshIdentity.PrivateKey("the private key " + bastion.passphraseKey(),
        Files.readAllBytes(bastion.passphraseKey()), null);
    assertThatThrownBy(() -> new SshTransport(throughBastion(locked))).isInstanceOfSatisfying(HostException.class,
        e -> assertThat(e.getMessage()).contains("is passphrase-protected and no passphrase was given"));
  }

  @Test
  void anSshAgentsKeysLogInOnBoth(@TempDir Path dir) throws Exception {
    try (SshAgent agent = SshAgent.start(dir)) {
      SshIdentity keys = new SshIdentity.Agent(agent.socket());
      assertThatThrownBy(() -> new SshTransport(throughBastion(keys))).isInstanceOfSatisfying(HostException.class,
          e -> assertThat(e.getMessage()).contains("the ssh-agent at " + agent.socket() + " holds no key"));
      agent.add(ssh.keyFile());
      try (SshTransport t = new SshTransport(throughBastion(keys))) {
        assertThat(t.exec("echo agent", T).stdout()).isEqualTo("agent\n");
      }
    }
  }
}
