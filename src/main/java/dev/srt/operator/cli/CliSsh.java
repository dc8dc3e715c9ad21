package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.SshJumpSpec;
import dev.srt.operator.api.SshSpec;
import dev.srt.operator.config.Durations;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.LocalTransport;
import dev.srt.operator.host.SshConfig;
import dev.srt.operator.host.SshEndpoint;
import dev.srt.operator.host.SshIdentity;
import dev.srt.operator.host.SshTransport;
import dev.srt.operator.host.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The CLI's way to a GpuCluster: this machine for {@code transport: local}, else SSH with what the
 * user running the CLI has, as OpenSSH would: the key file named in {@code spec.ssh} (its
 * passphrase from the environment variable the spec names, never printed), else the keys of the
 * running ssh-agent ({@code SSH_AUTH_SOCK}); the known_hosts file named, else
 * {@code ~/.ssh/known_hosts}. Jump hosts take the target's key and known_hosts unless they name
 * their own. Secret references are the operator's and are not read here.
 */
final class CliSsh {
  static final String AGENT_SOCKET = "SSH_AUTH_SOCK";

  private final String cluster;
  private final Map<String, String> env;
  private final Path home;

  private CliSsh(String cluster, Map<String, String> env, Path home) {
    this.cluster = cluster;
    this.env = env;
    this.home = home;
  }

  /** The connection for {@code cluster}, from this process's environment and home directory. */
  static Transport transport(GpuCluster cluster) throws ApplyCommand.UsageError {
    if (cluster.getSpec().isLocal()) {
      return new LocalTransport();
    }
    SshConfig config = config(cluster, System.getenv(), Path.of(System.getProperty("user.home")));
    try {
      return new SshTransport(config);
    } catch (HostException e) {
      throw new ApplyCommand.UsageError("GpuCluster " + cluster.getMetadata().getName() + ": " + e.getMessage());
    }
  }

  /** The SSH settings of {@code cluster} for a user with {@code env} and home directory {@code home}. */
  static SshConfig config(GpuCluster cluster, Map<String, String> env, Path home) throws ApplyCommand.UsageError {
    return new CliSsh("GpuCluster " + cluster.getMetadata().getName(), env, home).config(cluster.getSpec().ssh);
  }

  private SshConfig config(SshSpec ssh) throws ApplyCommand.UsageError {
    boolean insecure = Boolean.TRUE.equals(ssh.insecureSkipHostKeyVerification);
    SshIdentity key = identity("spec.ssh", ssh.privateKeyFile, ssh.privateKeyPassphraseEnv);
    byte[] knownHosts = ssh.knownHostsFile != null ? read("spec.ssh.knownHostsFile", ssh.knownHostsFile)
        : insecure ? null : defaultKnownHosts();
    List<SshEndpoint> jumps = new ArrayList<>();
    List<SshJumpSpec> hops = ssh.proxyJump == null ? List.of() : ssh.proxyJump.stream().filter(Objects::nonNull).toList();
    try {
      for (int i = 0; i < hops.size(); i++) {
        SshJumpSpec hop = hops.get(i);
        String p = "spec.ssh.proxyJump[" + i + "]";
        SshIdentity hopKey = hop.privateKeyFile == null ? key : identity(p, hop.privateKeyFile, hop.privateKeyPassphraseEnv);
        byte[] hopKnownHosts = hop.knownHostsFile == null ? knownHosts : read(p + ".knownHostsFile", hop.knownHostsFile);
        jumps.add(new SshEndpoint(hop.host, hop.port == null ? 22 : hop.port, hop.user == null ? ssh.user : hop.user, hopKey,
            hopKnownHosts, hop.knownHostsFile == null && insecure));
      }
      SshEndpoint target = new SshEndpoint(ssh.host, ssh.port == null ? 22 : ssh.port, ssh.user, key, knownHosts, insecure);
      return new SshConfig(target, jumps, Durations.parse(ssh.connectTimeout, SshConfig.DEFAULT_CONNECT_TIMEOUT),
          SshConfig.DEFAULT_KEEPALIVE_INTERVAL);
    } catch (IllegalArgumentException e) {
      throw new ApplyCommand.UsageError(cluster + ": " + e.getMessage());
    }
  }

  /** The key file (with the passphrase its variable holds), or without a file the running ssh-agent. */
  private SshIdentity identity(String p, String keyFile, String passphraseEnv) throws ApplyCommand.UsageError {
    if (keyFile == null) {
      String socket = env.get(AGENT_SOCKET);
      if (socket == null || socket.isBlank()) {
        throw new ApplyCommand.UsageError(cluster + ": " + p + " names no privateKeyFile and no ssh-agent is running ("
            + AGENT_SOCKET + " is not set): set privateKeyFile to a key file on this machine, or start ssh-agent and ssh-add "
            + "the key (privateKeySecretRef is for the operator)");
      }
      return new SshIdentity.Agent(Path.of(socket));
    }
    byte[] passphrase = null;
    if (passphraseEnv != null) {
      String value = env.get(passphraseEnv);
      if (value == null) {
        throw new ApplyCommand.UsageError(cluster + ": " + p + ".privateKeyPassphraseEnv names " + passphraseEnv
            + ", which is not set in this shell: export it with the passphrase of " + keyFile);
      }
      passphrase = value.getBytes(StandardCharsets.UTF_8);
    }
    Path file = localPath(keyFile);
    return new SshIdentity.PrivateKey("the private key " + file, read(p + ".privateKeyFile", keyFile), passphrase);
  }

  private byte[] defaultKnownHosts() throws ApplyCommand.UsageError {
    Path file = home.resolve(".ssh/known_hosts");
    if (!Files.isReadable(file)) {
      throw new ApplyCommand.UsageError(cluster + ": spec.ssh names no knownHostsFile and " + file + " cannot be read: "
          + "set knownHostsFile to a file with the host's key (ssh-keyscan -p PORT HOST), or connect once with ssh "
          + "(knownHostsSecretRef is for the operator)");
    }
    return read("~/.ssh/known_hosts", file.toString());
  }

  private byte[] read(String field, String file) throws ApplyCommand.UsageError {
    Path path = localPath(file);
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new ApplyCommand.UsageError(cluster + ": " + field + ": cannot read " + path + " (" + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
    }
  }

  /** {@code ~/x} is in the home directory of the user running the CLI. */
  private Path localPath(String file) {
    return file.startsWith("~/") ? home.resolve(file.substring(2)) : Path.of(file);
  }
}
