package dev.srt.operator.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How to reach a host over SSH: the target and the jump hosts in front of it, in the order they
 * are passed through (OpenSSH's {@code ProxyJump}), with the timeouts of every connection. Keys,
 * passphrases and known_hosts are bytes (the operator has them from Secrets; the CLI reads files);
 * {@link #toString()} names where they came from and never what they are.
 */
public record SshConfig(SshEndpoint target, List<SshEndpoint> jumps, Duration connectTimeout, Duration keepaliveInterval) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_KEEPALIVE_INTERVAL = Duration.ofSeconds(15);

  public SshConfig {
    Objects.requireNonNull(target, "target");
    jumps = jumps == null ? List.of() : List.copyOf(jumps);
    connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
    keepaliveInterval = keepaliveInterval == null ? DEFAULT_KEEPALIVE_INTERVAL : keepaliveInterval;
  }

  /** A direct connection with an unencrypted key (the tests' and the simplest sites' case). */
  public SshConfig(String host, int port, String user, byte[] privateKey, byte[] knownHosts,
      boolean insecureSkipHostKeyVerification, Duration connectTimeout, Duration keepaliveInterval) {
    this(new SshEndpoint(host, port, user, new SshIdentity.PrivateKey("the private key of " + user + "@" + host,
        Objects.requireNonNull(privateKey, "privateKey"), null), knownHosts, insecureSkipHostKeyVerification),
        List.of(), connectTimeout, keepaliveInterval);
  }

  /** For tests and the simplest CLI case: reads the private key and (unless null) the known_hosts file. */
  public static SshConfig withKeyFiles(String host, int port, String user, Path privateKeyFile,
      Path knownHostsFile, boolean insecureSkipHostKeyVerification, Duration connectTimeout,
      Duration keepaliveInterval) throws IOException {
    byte[] known = knownHostsFile == null ? null : Files.readAllBytes(knownHostsFile);
    SshIdentity key = new SshIdentity.PrivateKey("the private key " + privateKeyFile, Files.readAllBytes(privateKeyFile), null);
    return new SshConfig(new SshEndpoint(host, port, user, key, known, insecureSkipHostKeyVerification), List.of(),
        connectTimeout, keepaliveInterval);
  }

  public String host() {
    return target.host();
  }

  public int port() {
    return target.port();
  }

  public String user() {
    return target.user();
  }

  /** The target's private key, or null when it logs in with an agent. */
  public byte[] privateKey() {
    return target.identity() instanceof SshIdentity.PrivateKey k ? k.key() : null;
  }

  public byte[] knownHosts() {
    return target.knownHosts();
  }

  public boolean insecureSkipHostKeyVerification() {
    return target.insecureSkipHostKeyVerification();
  }

  /** This configuration with another target (the same jump hosts and timeouts). */
  public SshConfig withTarget(SshEndpoint other) {
    return new SshConfig(other, jumps, connectTimeout, keepaliveInterval);
  }

  /** Names every server and where its key comes from; key material is never included. */
  @Override
  public String toString() {
    return "SshConfig[" + target + (jumps.isEmpty() ? "" : " via " + jumps.stream().map(SshEndpoint::toString)
        .collect(Collectors.joining(", "))) + ", connectTimeout=" + connectTimeout + ", keepalive=" + keepaliveInterval + "]";
  }
}
