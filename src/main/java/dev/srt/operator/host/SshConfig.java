package dev.srt.operator.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * How to reach a host over SSH. The key and known_hosts are bytes (the operator has them from a
 * Secret; the CLI reads files with {@link #withKeyFiles}). The arrays are copied in and out, and
 * {@link #toString()} leaves the key out, so the key cannot leak through this record into logs.
 *
 * @param knownHosts known_hosts lines for the host ({@code [host]:port type key} when the port is
 *     not 22); null only together with {@code insecureSkipHostKeyVerification}
 */
public record SshConfig(
    String host,
    int port,
    String user,
    byte[] privateKey,
    byte[] knownHosts,
    boolean insecureSkipHostKeyVerification,
    Duration connectTimeout,
    Duration keepaliveInterval) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_KEEPALIVE_INTERVAL = Duration.ofSeconds(15);

  public SshConfig {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(privateKey, "privateKey");
    if (host.isBlank() || user.isBlank()) {
      throw new IllegalArgumentException("host and user must not be blank");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    if (knownHosts == null && !insecureSkipHostKeyVerification) {
      throw new IllegalArgumentException("known_hosts for " + host
          + " is required unless insecureSkipHostKeyVerification is explicitly true");
    }
    privateKey = privateKey.clone();
    knownHosts = knownHosts == null ? null : knownHosts.clone();
    connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
    keepaliveInterval = keepaliveInterval == null ? DEFAULT_KEEPALIVE_INTERVAL : keepaliveInterval;
  }

  /** For the CLI: reads the private key and (unless null) the known_hosts file. */
  public static SshConfig withKeyFiles(String host, int port, String user, Path privateKeyFile,
      Path knownHostsFile, boolean insecureSkipHostKeyVerification, Duration connectTimeout,
      Duration keepaliveInterval) throws IOException {
    byte[] known = knownHostsFile == null ? null : Files.readAllBytes(knownHostsFile);
    return new SshConfig(host, port, user, Files.readAllBytes(privateKeyFile), known,
        insecureSkipHostKeyVerification, connectTimeout, keepaliveInterval);
  }

  @Override
  public byte[] privateKey() {
    return privateKey.clone();
  }

  @Override
  public byte[] knownHosts() {
    return knownHosts == null ? null : knownHosts.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SshConfig c
        && host.equals(c.host) && port == c.port && user.equals(c.user)
        && Arrays.equals(privateKey, c.privateKey) && Arrays.equals(knownHosts, c.knownHosts)
        && insecureSkipHostKeyVerification == c.insecureSkipHostKeyVerification
        && connectTimeout.equals(c.connectTimeout) && keepaliveInterval.equals(c.keepaliveInterval);
  }

  @Override
  public int hashCode() {
    return Objects.hash(host, port, user, Arrays.hashCode(privateKey), Arrays.hashCode(knownHosts),
        insecureSkipHostKeyVerification, connectTimeout, keepaliveInterval);
  }

  /** Names the endpoint and how the host key is checked; the key itself is never included. */
  @Override
  public String toString() {
    String hostKey = insecureSkipHostKeyVerification
        ? "host key NOT verified"
        : "known_hosts " + knownHostsLineCount() + " line(s)";
    return "SshConfig[" + user + "@" + host + ":" + port + ", " + hostKey
        + ", connectTimeout=" + connectTimeout + ", keepalive=" + keepaliveInterval + "]";
  }

  private long knownHostsLineCount() {
    return knownHosts == null ? 0
        : new String(knownHosts, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).count();
  }
}
