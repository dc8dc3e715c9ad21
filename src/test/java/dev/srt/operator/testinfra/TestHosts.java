package dev.srt.operator.testinfra;

import dev.srt.operator.host.SshConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The real test services on this machine (a key-only sshd on loopback and a Slurm with 8 fake
 * GPUs per node: this machine, plus a multinode partition of network namespaces), as described
 * by the env file that {@code .ci/start-sshd.sh} and
 * {@code .ci/start-slurm.sh} write ({@code /root/.srt-test/env}, or the file named by
 * {@code SRT_TEST_ENV}).
 *
 * <p>Tests that need a service call {@link #requireSsh()} / {@link #requireSlurm()} first (or
 * just {@link #ssh()}). When the service is missing the test is skipped, except when
 * {@code SRT_E2E_REQUIRED=1} (set by CI): then it fails, so CI never goes green by skipping.
 */
public final class TestHosts {

  /** Environment variable that overrides the env file location. */
  public static final String ENV_FILE_VAR = "SRT_TEST_ENV";
  /** Default env file written by the {@code .ci/start-*.sh} scripts. */
  public static final Path DEFAULT_ENV_FILE = Path.of("/root/.srt-test/env");
  /** Environment variable that turns "skip when missing" into "fail when missing". */
  public static final String REQUIRED_VAR = "SRT_E2E_REQUIRED";

  static final String SSH_HOST = "SRT_TEST_SSH_HOST";
  static final String SSH_PORT = "SRT_TEST_SSH_PORT";
  static final String SSH_USER = "SRT_TEST_SSH_USER";
  static final String SSH_KEY = "SRT_TEST_SSH_KEY";
  static final String SSH_KNOWN_HOSTS = "SRT_TEST_SSH_KNOWN_HOSTS";
  static final String SSH_PASSPHRASE_KEY = "SRT_TEST_SSH_PASSPHRASE_KEY";
  static final String SSH_PASSPHRASE_FILE = "SRT_TEST_SSH_PASSPHRASE_FILE";
  static final String BASTION_HOST = "SRT_TEST_BASTION_HOST";
  static final String BASTION_PORT = "SRT_TEST_BASTION_PORT";
  static final String BASTION_KNOWN_HOSTS = "SRT_TEST_BASTION_KNOWN_HOSTS";
  static final String JUMP_TARGET = "SRT_TEST_JUMP_TARGET";
  static final String SLURM = "SRT_TEST_SLURM";
  static final String SLURM_PARTITION = "SRT_TEST_SLURM_PARTITION";
  static final String SLURM_MULTINODE_PARTITION = "SRT_TEST_SLURM_MULTINODE_PARTITION";
  /**
   * The JUnit resource lock of the multinode partition: its tests take both nodes (or set one
   * down), so they run one at a time; and since its nodes have loopbacks of their own, those marked
   * {@code @Execution(CONCURRENT)} run beside the tests that use this machine's.
   */
  public static final String MULTINODE_PARTITION = "slurm-multinode-partition";
  static final String SLURM_MULTINODE_NODES = "SRT_TEST_SLURM_MULTINODE_NODES";

  private static final String SSH_HINT = "run .ci/start-sshd.sh (see docs/testing.md)";
  private static final String BASTION_HINT = "run .ci/start-sshd.sh and .ci/start-bastion.sh (see docs/testing.md)";
  private static final String SLURM_HINT = "run .ci/start-sshd.sh and .ci/start-slurm.sh (see docs/testing.md)";
  private static final String MULTINODE_HINT = "run .ci/start-sshd.sh and .ci/start-slurm.sh without"
      + " SRT_SLURM_MULTINODE_NODES=0 (see docs/testing.md)";

  /** Reachability of host:port, probed once per JVM. */
  private static final Map<String, Boolean> PORT_OPEN = new ConcurrentHashMap<>();

  private TestHosts() {}

  /** Where the test SSH server is and how to log in to it. */
  public record SshTarget(String host, int port, String user, Path keyFile, Path knownHostsFile) {

    /** The connection settings for {@link dev.srt.operator.host.SshTransport}: host key checked, 5 s keepalive. */
    public SshConfig sshConfig() {
      try {
        return SshConfig.withKeyFiles(host, port, user, keyFile, knownHostsFile, false, Duration.ofSeconds(10),
            Duration.ofSeconds(5));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the test SSH key or known_hosts", e);
      }
    }
  }

  /**
   * The test bastion of {@code .ci/start-bastion.sh} in front of the test sshd: {@code host:port}
   * is the bastion; {@code target} names the test sshd (at the same port as {@link #ssh()}) by a
   * name only the bastion resolves; {@code knownHostsFile} holds the bastion's key and the test
   * sshd's under that name. {@code passphraseKey} is a client key with a passphrase
   * ({@code passphraseFile}), authorized on both.
   */
  public record Bastion(String host, int port, Path knownHostsFile, String target, Path passphraseKey, Path passphraseFile) {

    /** The passphrase of {@link #passphraseKey}. */
    public String passphrase() {
      try {
        return Files.readString(passphraseFile).strip();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + passphraseFile, e);
      }
    }
  }

  /**
   * The test Slurm's partition of nodes that are network namespaces (each its own address,
   * hostname and 8 fake GPUs), named {@code srt-node1..nodes}.
   */
  public record MultiNodePartition(String name, int nodes) {}

  // ------------------------------------------------------------------ public API

  /** The env file in use: {@code $SRT_TEST_ENV} if set, else {@code /root/.srt-test/env}. */
  public static Path envFile() {
    String override = System.getenv(ENV_FILE_VAR);
    return override == null || override.isBlank() ? DEFAULT_ENV_FILE : Path.of(override);
  }

  /** The test sshd; skips (or, with {@code SRT_E2E_REQUIRED=1}, fails) the test if it is not up. */
  public static SshTarget ssh() {
    requireSsh();
    return sshTarget(load(envFile())).orElseThrow();
  }

  /**
   * The test bastion (and the test sshd behind it); skips (or, with {@code SRT_E2E_REQUIRED=1},
   * fails) the test if either is not up.
   */
  public static Bastion bastion() {
    Map<String, String> values = load(envFile());
    String problem = sshProblem(values);
    if (problem == null) {
      problem = bastionProblem(values);
    }
    require(problem, BASTION_HINT, System.getenv(REQUIRED_VAR));
    return bastionOf(values).orElseThrow();
  }

  /** The test sshd if it is configured and accepts connections, without skipping anything. */
  public static Optional<SshTarget> sshIfAvailable() {
    Map<String, String> values = load(envFile());
    return sshProblem(values) == null ? sshTarget(values) : Optional.empty();
  }

  /** True if start-slurm.sh verified the test Slurm ({@code SRT_TEST_SLURM=1}). */
  public static boolean slurm() {
    return slurmProblem(load(envFile())) == null;
  }

  /** The Slurm partition to submit test jobs to. */
  public static String slurmPartition() {
    return load(envFile()).getOrDefault(SLURM_PARTITION, "debug");
  }

  /** Skips (or fails, in CI) the calling test unless the test sshd is up. */
  public static void requireSsh() {
    require(sshProblem(load(envFile())), SSH_HINT, System.getenv(REQUIRED_VAR));
  }

  /**
   * Skips (or fails, in CI) the calling test unless the test Slurm is up. Also requires the sshd,
   * because the project talks to Slurm through SSH (the login node is {@link #ssh()}).
   */
  public static void requireSlurm() {
    Map<String, String> values = load(envFile());
    String problem = sshProblem(values);
    if (problem == null) {
      problem = slurmProblem(values);
    }
    require(problem, SLURM_HINT, System.getenv(REQUIRED_VAR));
  }

  /**
   * The multinode partition; skips (or, with {@code SRT_E2E_REQUIRED=1}, fails) the calling test
   * unless the test Slurm, its sshd and that partition are up.
   */
  public static MultiNodePartition requireMultiNodeSlurm() {
    Map<String, String> values = load(envFile());
    String problem = sshProblem(values);
    if (problem == null) {
      problem = slurmProblem(values);
    }
    if (problem == null && multiNode(values).isEmpty()) {
      problem = "no multi-node test Slurm partition configured in " + envFile();
    }
    require(problem, MULTINODE_HINT, System.getenv(REQUIRED_VAR));
    return multiNode(values).orElseThrow();
  }

  // ------------------------------------------------------------------ package-private (tested)

  /** The multinode partition the values describe: a name and at least two nodes. */
  static Optional<MultiNodePartition> multiNode(Map<String, String> values) {
    String name = values.get(SLURM_MULTINODE_PARTITION);
    String nodes = values.get(SLURM_MULTINODE_NODES);
    if (isBlank(name) || nodes == null || !nodes.strip().matches("[0-9]{1,3}")) {
      return Optional.empty();
    }
    int count = Integer.parseInt(nodes.strip());
    return count >= 2 ? Optional.of(new MultiNodePartition(name.strip(), count)) : Optional.empty();
  }

  /** Reads an env file; a missing file is an empty map. */
  static Map<String, String> load(Path file) {
    if (!Files.isRegularFile(file)) {
      return Map.of();
    }
    try {
      return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * Parses shell {@code KEY=value} lines: blank lines and {@code #} comments are ignored, an
   * {@code export } prefix is allowed, one pair of surrounding single or double quotes is removed,
   * lines that are not assignments are ignored, and a later line wins (as when sourced).
   */
  static Map<String, String> parse(List<String> lines) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String raw : lines) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("export ")) {
        line = line.substring("export ".length()).strip();
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String key = line.substring(0, eq);
      if (!key.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        continue;
      }
      String value = line.substring(eq + 1);
      if (value.length() >= 2
          && (value.startsWith("\"") && value.endsWith("\"")
              || value.startsWith("'") && value.endsWith("'"))) {
        value = value.substring(1, value.length() - 1);
      }
      values.put(key, value);
    }
    return values;
  }

  /** The SSH target described by the values, if all five keys are present and the port is a number. */
  static Optional<SshTarget> sshTarget(Map<String, String> values) {
    String host = values.get(SSH_HOST);
    String port = values.get(SSH_PORT);
    String user = values.get(SSH_USER);
    String key = values.get(SSH_KEY);
    String knownHosts = values.get(SSH_KNOWN_HOSTS);
    if (isBlank(host) || isBlank(port) || isBlank(user) || isBlank(key) || isBlank(knownHosts)) {
      return Optional.empty();
    }
    int portNumber;
    try {
      portNumber = Integer.parseInt(port.strip());
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (portNumber < 1 || portNumber > 65535) {
      return Optional.empty();
    }
    return Optional.of(new SshTarget(host, portNumber, user, Path.of(key), Path.of(knownHosts)));
  }

  /** Why the test sshd cannot be used, or null if it can. */
  static String sshProblem(Map<String, String> values) {
    Optional<SshTarget> target = sshTarget(values);
    if (target.isEmpty()) {
      return "no SSH test host configured in " + envFile();
    }
    SshTarget t = target.get();
    if (!Files.isReadable(t.keyFile())) {
      return "SSH key " + t.keyFile() + " is not readable";
    }
    if (!Files.isReadable(t.knownHostsFile())) {
      return "known_hosts " + t.knownHostsFile() + " is not readable";
    }
    if (!portOpen(t.host(), t.port())) {
      // e.g. the machine rebooted: the env file survives, the daemons do not.
      return "nothing listens on " + t.host() + ":" + t.port();
    }
    return null;
  }

  /** The bastion described by the values, if all its keys are present and the port is a number. */
  static Optional<Bastion> bastionOf(Map<String, String> values) {
    List<String> keys = List.of(BASTION_HOST, BASTION_PORT, BASTION_KNOWN_HOSTS, JUMP_TARGET, SSH_PASSPHRASE_KEY, SSH_PASSPHRASE_FILE);
    if (keys.stream().anyMatch(k -> isBlank(values.get(k))) || !values.get(BASTION_PORT).strip().matches("[0-9]{1,5}")) {
      return Optional.empty();
    }
    return Optional.of(new Bastion(values.get(BASTION_HOST), Integer.parseInt(values.get(BASTION_PORT).strip()),
        Path.of(values.get(BASTION_KNOWN_HOSTS)), values.get(JUMP_TARGET), Path.of(values.get(SSH_PASSPHRASE_KEY)),
        Path.of(values.get(SSH_PASSPHRASE_FILE))));
  }

  /** Why the test bastion cannot be used, or null if it can. */
  static String bastionProblem(Map<String, String> values) {
    Optional<Bastion> bastion = bastionOf(values);
    if (bastion.isEmpty()) {
      return "no test bastion configured in " + envFile();
    }
    Bastion b = bastion.get();
    for (Path file : List.of(b.knownHostsFile(), b.passphraseKey(), b.passphraseFile())) {
      if (!Files.isReadable(file)) {
        return file + " is not readable";
      }
    }
    return portOpen(b.host(), b.port()) ? null : "nothing listens on " + b.host() + ":" + b.port();
  }

  /** Why the test Slurm cannot be used, or null if it can. */
  static String slurmProblem(Map<String, String> values) {
    return "1".equals(values.get(SLURM)) ? null : "no test Slurm configured in " + envFile();
  }

  /** Fails (required = "1") or skips the test when problem is non-null. */
  /**
   * Skips the calling test when {@code problem} (e.g. a missing program) is not null, or fails it
   * with {@code SRT_E2E_REQUIRED=1}; {@code hint} says how to provide what is missing.
   */
  public static void require(String problem, String hint) {
    require(problem, hint, System.getenv(REQUIRED_VAR));
  }

  /**
   * The path of {@code name} on PATH (or in /usr/sbin, where Debian puts some daemons), skipping
   * the test without it (failing it with {@code SRT_E2E_REQUIRED=1}).
   */
  public static String program(String name, String hint) {
    List<String> dirs = new java.util.ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)));
    dirs.add("/usr/sbin");
    for (String d : dirs) {
      if (!d.isEmpty() && java.nio.file.Files.isExecutable(Path.of(d, name)) && !java.nio.file.Files.isDirectory(Path.of(d, name))) {
        return Path.of(d, name).toString();
      }
    }
    require(name + " is not installed", hint);
    throw new IllegalStateException("unreachable: require skipped or failed the test");
  }

  static void require(String problem, String hint, String required) {
    if (problem == null) {
      return;
    }
    String message = problem + ": " + hint;
    if ("1".equals(required)) {
      Assertions.fail(message + " (" + REQUIRED_VAR + "=1, so this test may not be skipped)");
    }
    Assumptions.assumeTrue(false, message);
  }

  private static boolean portOpen(String host, int port) {
    return PORT_OPEN.computeIfAbsent(host + ":" + port, k -> {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(host, port), 1000);
        return true;
      } catch (IOException e) {
        return false;
      }
    });
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
