package dev.srt.operator.testinfra;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The GpuCluster of the end-to-end tests, as YAML: the test sshd, eight GPUs per node, a work
 * directory of the test's, the emulator's shims on the scripts' {@code PATH}, Slurm on a test
 * partition (or a direct host). One place for the shape, so that every test gets a field of the
 * API the same way. The SSH key comes from the sshd's key files (the CLI's way) unless a Secret is
 * named (the operator's way).
 */
public final class TestCluster {
  private final String name;
  private final TestHosts.SshTarget ssh;
  private String mode = "slurm";
  private String secret;
  private boolean passphraseInSecret;
  private String passphraseEnv;
  private boolean agent;
  private final List<String> jumps = new ArrayList<>();
  private String connectTimeout;
  private Path workDir;
  private final List<Path> path = new ArrayList<>();
  private final Map<String, String> env = new LinkedHashMap<>();
  private String partition;
  private String timeLimit = "00:10:00";
  private String pollInterval = "500ms";

  private TestCluster(String name, TestHosts.SshTarget ssh) {
    this.name = name;
    this.ssh = ssh;
  }

  /** GpuCluster {@code name} reached over {@code ssh}. */
  public static TestCluster named(String name, TestHosts.SshTarget ssh) {
    return new TestCluster(name, ssh);
  }

  /** {@code slurm} (the default) or {@code direct}. */
  public TestCluster mode(String mode) {
    this.mode = mode;
    return this;
  }

  /** The key and known_hosts from Secret {@code secret} (keys {@code id_ed25519}, {@code known_hosts}). */
  public TestCluster keyFromSecret(String secret) {
    this.secret = secret;
    return this;
  }

  /** The key is passphrase-protected: its passphrase is the Secret's key {@code passphrase} (with {@link #keyFromSecret}). */
  public TestCluster passphraseFromSecret() {
    this.passphraseInSecret = true;
    return this;
  }

  /** The key file's passphrase is in the CLI's environment variable {@code name}. */
  public TestCluster passphraseFromEnv(String name) {
    this.passphraseEnv = name;
    return this;
  }

  /** No key file: the CLI logs in with its ssh-agent. */
  public TestCluster keyFromAgent() {
    this.agent = true;
    return this;
  }

  /** A jump host in front of the target (after those given before), with the target's user, key and known_hosts. */
  public TestCluster jump(String host, int port) {
    jumps.add("{host: " + host + ", port: " + port + "}");
    return this;
  }

  public TestCluster connectTimeout(String connectTimeout) {
    this.connectTimeout = connectTimeout;
    return this;
  }

  public TestCluster workDir(Path workDir) {
    this.workDir = workDir;
    return this;
  }

  /** Directories put first on the scripts' {@code PATH}, in this order, after those given before. */
  public TestCluster path(List<Path> dirs) {
    path.addAll(dirs);
    return this;
  }

  public TestCluster path(Path dir) {
    return path(List.of(dir));
  }

  /** Variables of every process of a run (after those given before). */
  public TestCluster env(Map<String, String> variables) {
    env.putAll(variables);
    return this;
  }

  public TestCluster env(String variable, Object value) {
    env.put(variable, String.valueOf(value));
    return this;
  }

  /** The Slurm partition (Slurm mode). */
  public TestCluster partition(String partition) {
    this.partition = partition;
    return this;
  }

  public TestCluster timeLimit(String timeLimit) {
    this.timeLimit = timeLimit;
    return this;
  }

  public TestCluster pollInterval(String pollInterval) {
    this.pollInterval = pollInterval;
    return this;
  }

  public String yaml() {
    if (workDir == null || (mode.equals("slurm") && partition == null)) {
      throw new IllegalStateException("GpuCluster " + name + ": a work directory" + (mode.equals("slurm") ? " and a partition" : "") + " are needed");
    }
    StringBuilder y = new StringBuilder("""
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: %s}
        spec:
          mode: %s
          transport: ssh
          ssh:
            host: %s
            port: %d
            user: %s
        """.formatted(name, mode, ssh.host(), ssh.port(), ssh.user()));
    if (secret != null) {
      y.append("    privateKeySecretRef: {name: ").append(secret).append(", key: id_ed25519}\n");
      if (passphraseInSecret) {
        y.append("    privateKeyPassphraseSecretRef: {name: ").append(secret).append(", key: passphrase}\n");
      }
      y.append("    knownHostsSecretRef: {name: ").append(secret).append(", key: known_hosts}\n");
    } else {
      if (!agent) {
        y.append("    privateKeyFile: ").append(quoted(ssh.keyFile().toString())).append('\n');
      }
      if (passphraseEnv != null) {
        y.append("    privateKeyPassphraseEnv: ").append(passphraseEnv).append('\n');
      }
      y.append("    knownHostsFile: ").append(quoted(ssh.knownHostsFile().toString())).append('\n');
    }
    if (!jumps.isEmpty()) {
      y.append("    proxyJump: [").append(String.join(", ", jumps)).append("]\n");
    }
    if (connectTimeout != null) {
      y.append("    connectTimeout: ").append(connectTimeout).append('\n');
    }
    y.append("  workDir: ").append(quoted(workDir.toString())).append('\n');
    y.append("  gpusPerNode: 8\n");
    y.append("  path: [").append(path.stream().map(p -> quoted(p.toString())).collect(Collectors.joining(", "))).append("]\n");
    y.append("  env: {").append(env.entrySet().stream().map(e -> e.getKey() + ": " + quoted(e.getValue())).collect(Collectors.joining(", ")))
        .append("}\n");
    if (mode.equals("slurm")) {
      y.append("  slurm: {partition: ").append(partition).append(", timeLimit: ").append(quoted(timeLimit)).append("}\n");
    }
    y.append("  pollInterval: ").append(pollInterval).append('\n');
    return y.toString();
  }

  /** A YAML double-quoted scalar. */
  private static String quoted(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
