package dev.srt.operator.host;

import dev.srt.operator.config.Echo;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Who logs in to an SSH server: a private key (with its passphrase when it has one) or the keys a
 * running ssh-agent holds. {@link #source()} names where the key came from for messages (a
 * Secret's name and key, a file, the agent's socket); nothing here ever prints key material.
 */
public sealed interface SshIdentity permits SshIdentity.PrivateKey, SshIdentity.Agent {

  /**
   * The key as messages name it, e.g. "the private key of Secret h100-ssh, key id_ed25519", "the
   * private key /home/me/.ssh/id_ed25519" or "the keys of the ssh-agent at /tmp/ssh-x/agent.1".
   */
  String source();

  /**
   * A private key (OpenSSH or PEM: ed25519, ECDSA or RSA) and, for an encrypted one, its
   * passphrase (null: none). The arrays are copied in and out.
   */
  final class PrivateKey implements SshIdentity {
    private final String source;
    private final byte[] key;
    private final byte[] passphrase;

    public PrivateKey(String source, byte[] key, byte[] passphrase) {
      // Names a host, user or file of the input: escaped, as every message that quotes one.
      this.source = Echo.escape(Objects.requireNonNull(source, "source"));
      this.key = Objects.requireNonNull(key, "key").clone();
      this.passphrase = passphrase == null ? null : passphrase.clone();
    }

    @Override
    public String source() {
      return source;
    }

    public byte[] key() {
      return key.clone();
    }

    /** The passphrase, or null when none was given. */
    public byte[] passphrase() {
      return passphrase == null ? null : passphrase.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PrivateKey k && source.equals(k.source) && Arrays.equals(key, k.key)
          && Arrays.equals(passphrase, k.passphrase);
    }

    @Override
    public int hashCode() {
      return Objects.hash(source, Arrays.hashCode(key), Arrays.hashCode(passphrase));
    }

    @Override
    public String toString() {
      return source + (passphrase == null ? "" : " (with passphrase)");
    }
  }

  /** The keys of the ssh-agent listening on {@code socket} ({@code SSH_AUTH_SOCK}). */
  record Agent(Path socket) implements SshIdentity {
    public Agent {
      Objects.requireNonNull(socket, "socket");
    }

    @Override
    public String source() {
      return "the keys of the ssh-agent at " + Echo.escape(socket.toString());
    }

    @Override
    public String toString() {
      return source();
    }
  }
}
