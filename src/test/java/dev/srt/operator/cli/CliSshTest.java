package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.host.SshConfig;
import dev.srt.operator.host.SshIdentity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the CLI turns a GpuCluster's ssh block, its environment and home directory into SSH settings. */
class CliSshTest {
  @TempDir Path home;

  @BeforeEach
  void files() throws Exception {
    Files.createDirectories(home.resolve(".ssh"));
    Files.writeString(home.resolve(".ssh/id_ed25519"), "target key");
    Files.writeString(home.resolve(".ssh/id_bastion"), "bastion key");
    Files.writeString(home.resolve(".ssh/known_hosts"), "login01 ssh-ed25519 AAAA\n");
    Files.writeString(home.resolve("bastion_known_hosts"), "bastion ssh-ed25519 BBBB\n");
  }

  private static GpuCluster cluster(String ssh) {
    LoadedResources r = LoadedResources.parse("c.yaml", """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec:
          mode: slurm
          workDir: /work
          ssh:
        %s""".formatted(ssh.indent(4)));
    assertThat(r.problems()).isEmpty();
    return r.clusters().get(0);
  }

  @Test
  void withoutFilesTheAgentAndTheUsersKnownHostsAreUsed() throws Exception {
    SshConfig c = CliSsh.config(cluster("{host: login01, user: bench}"), Map.of("SSH_AUTH_SOCK", "/tmp/agent.1"), home);
    assertThat(c.target().identity()).isEqualTo(new SshIdentity.Agent(Path.of("/tmp/agent.1")));
    assertThat(new String(c.knownHosts(), StandardCharsets.UTF_8)).isEqualTo("login01 ssh-ed25519 AAAA\n");

    assertThatThrownBy(() -> CliSsh.config(cluster("{host: login01, user: bench}"), Map.of(), home))
        .hasMessageContaining("GpuCluster h100-box: spec.ssh names no privateKeyFile and no ssh-agent is running (SSH_AUTH_SOCK");
    Files.delete(home.resolve(".ssh/known_hosts"));
    assertThatThrownBy(() -> CliSsh.config(cluster("{host: login01, user: bench}"), Map.of("SSH_AUTH_SOCK", "/s"), home))
        .hasMessageContaining("spec.ssh names no knownHostsFile and " + home.resolve(".ssh/known_hosts") + " cannot be read");
    assertThat(CliSsh.config(cluster("{host: login01, user: bench, insecureSkipHostKeyVerification: true}"),
        Map.of("SSH_AUTH_SOCK", "/s"), home).knownHosts()).isNull();
  }

  @Test
  void aKeyFileTakesItsPassphraseFromTheNamedVariableWhichIsNeverPrinted() throws Exception {
    GpuCluster c = cluster("{host: login01, user: bench, privateKeyFile: ~/.ssh/id_ed25519, privateKeyPassphraseEnv: MY_PASS}");
    SshConfig config = CliSsh.config(c, Map.of("MY_PASS", "s3cret-value"), home);
    SshIdentity.PrivateKey key = (SshIdentity.PrivateKey) config.target().identity();
    assertThat(key.source()).isEqualTo("the private key " + home.resolve(".ssh/id_ed25519"));
    assertThat(key.key()).isEqualTo("target key".getBytes(StandardCharsets.UTF_8));
    assertThat(key.passphrase()).isEqualTo("s3cret-value".getBytes(StandardCharsets.UTF_8));
    assertThat(config.toString()).doesNotContain("s3cret-value", "target key");
    assertThatThrownBy(() -> CliSsh.config(c, Map.of(), home))
        .hasMessage("GpuCluster h100-box: spec.ssh.privateKeyPassphraseEnv names MY_PASS, which is not set in this shell: "
            + "export it with the passphrase of ~/.ssh/id_ed25519");
  }

  @Test
  void jumpHostsDefaultToTheTargetsUserKeyAndKnownHosts() throws Exception {
    GpuCluster c = cluster("""
        host: login01
        user: bench
        privateKeyFile: ~/.ssh/id_ed25519
        proxyJump:
          - {host: bastion, port: 2222, user: jump, privateKeyFile: ~/.ssh/id_bastion, knownHostsFile: ~/bastion_known_hosts}
          - {host: gateway}
        """);
    SshConfig config = CliSsh.config(c, Map.of(), home);
    assertThat(config.jumps()).hasSize(2);
    var bastion = config.jumps().get(0);
    assertThat(bastion.address()).isEqualTo("ssh://jump@bastion:2222");
    assertThat(((SshIdentity.PrivateKey) bastion.identity()).key()).isEqualTo("bastion key".getBytes(StandardCharsets.UTF_8));
    assertThat(new String(bastion.knownHosts(), StandardCharsets.UTF_8)).startsWith("bastion ");
    var gateway = config.jumps().get(1);
    assertThat(gateway.address()).isEqualTo("ssh://bench@gateway:22");
    assertThat(gateway.identity()).isEqualTo(config.target().identity());
    assertThat(gateway.knownHosts()).isEqualTo(config.target().knownHosts());
    assertThat(config.target().address()).isEqualTo("ssh://bench@login01:22");
  }

  @Test
  void anUnreadableFileNamesTheField() {
    assertThatThrownBy(() -> CliSsh.config(cluster("{host: login01, user: bench, privateKeyFile: /nonexistent/key}"), Map.of(), home))
        .hasMessageStartingWith("GpuCluster h100-box: spec.ssh.privateKeyFile: cannot read /nonexistent/key (NoSuchFileException");
  }
}
