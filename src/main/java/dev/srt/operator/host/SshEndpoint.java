package dev.srt.operator.host;

import dev.srt.operator.config.Echo;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One SSH server of a connection, the target or a jump host: where it is, who logs in, and how its
 * host key is checked. The host name of a server after a jump host is resolved by that jump host,
 * as OpenSSH's ProxyJump does (a login node's name often resolves only behind the bastion), and
 * its host key is looked up under that name.
 *
 * @param knownHosts known_hosts lines ({@code [host]:port type key} when the port is not 22); null
 *     only together with {@code insecureSkipHostKeyVerification}
 */
public record SshEndpoint(String host, int port, String user, SshIdentity identity, byte[] knownHosts,
    boolean insecureSkipHostKeyVerification) {

  public SshEndpoint {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(identity, "identity");
    if (host.isBlank() || user.isBlank()) {
      throw new IllegalArgumentException("host and user must not be blank");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port out of range: " + port);
    }
    if (knownHosts == null && !insecureSkipHostKeyVerification) {
      throw new IllegalArgumentException("known_hosts for " + Echo.escape(host)
          + " is required unless insecureSkipHostKeyVerification is explicitly true");
    }
    knownHosts = knownHosts == null ? null : knownHosts.clone();
  }

  @Override
  public byte[] knownHosts() {
    return knownHosts == null ? null : knownHosts.clone();
  }

  /**
   * {@code ssh://user@host:port}, for messages: the host and user escaped ({@link Echo#escape}),
   * so that neither can add a line or move a terminal's cursor wherever a message is shown.
   */
  public String address() {
    return "ssh://" + Echo.escape(user) + "@" + Echo.escape(host) + ":" + port;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SshEndpoint e && host.equals(e.host) && port == e.port && user.equals(e.user)
        && identity.equals(e.identity) && Arrays.equals(knownHosts, e.knownHosts)
        && insecureSkipHostKeyVerification == e.insecureSkipHostKeyVerification;
  }

  @Override
  public int hashCode() {
    return Objects.hash(host, port, user, identity, Arrays.hashCode(knownHosts), insecureSkipHostKeyVerification);
  }

  /** Names the server, the key's source and how the host key is checked; never key material. */
  @Override
  public String toString() {
    String hostKey = insecureSkipHostKeyVerification
        ? "host key NOT verified"
        : "known_hosts " + knownHostsLineCount() + " line(s)";
    return Echo.escape(user) + "@" + Echo.escape(host) + ":" + port + " (" + identity + ", " + hostKey + ")";
  }

  private long knownHostsLineCount() {
    return knownHosts == null ? 0
        : new String(knownHosts, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).count();
  }
}
