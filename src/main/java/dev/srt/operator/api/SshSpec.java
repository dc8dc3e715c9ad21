package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * How srt-operator reaches the host over SSH. The operator reads the key, its passphrase and
 * known_hosts from Secrets (the *SecretRef fields); the CLI from files and its environment (the
 * *File and *Env fields), or from a running ssh-agent and ~/.ssh/known_hosts when none is named.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = SshNames.CEL_SSH_HOST, message = SshNames.HOST_MESSAGE, fieldPath = ".host")
@ValidationRule(value = SshNames.CEL_SSH_USER, message = SshNames.USER_MESSAGE, fieldPath = ".user")
@ValidationRule(value = "!has(self.connectTimeout) || self.connectTimeout.matches('^([0-9]+(ms|s|m|h))+$')",
    message = "must be a duration such as 10s", fieldPath = ".connectTimeout")
@ValidationRule(value = "!has(self.privateKeyPassphraseEnv) || self.privateKeyPassphraseEnv.matches('^[A-Za-z_][A-Za-z0-9_]*$')",
    message = "must be an environment variable name: letters, digits and '_', not starting with a digit",
    fieldPath = ".privateKeyPassphraseEnv")
@ValidationRule(value = "!has(self.privateKeyPassphraseSecretRef) || has(self.privateKeySecretRef)",
    message = "a passphrase needs the key it decrypts: set privateKeySecretRef", fieldPath = ".privateKeyPassphraseSecretRef")
@ValidationRule(value = "!has(self.privateKeyPassphraseEnv) || has(self.privateKeyFile)",
    message = "a passphrase needs the key it decrypts: set privateKeyFile (the ssh-agent's keys need none)",
    fieldPath = ".privateKeyPassphraseEnv")
public class SshSpec {
  /**
   * Host name or address of the login node or GPU host: a DNS host name (RFC 1123), an IPv4 address
   * or an IPv6 address without brackets.
   */
  @Required
  @Size(max = Limits.MAX_NAME)
  public String host;

  /** SSH port. Default 22. */
  @Min(Limits.MIN_PORT)
  @Max(Limits.MAX_PORT)
  @Default("22")
  public Integer port;

  /**
   * User to log in as: lower-case letters, digits, '_', '.' and '-' (not first), optionally ending
   * in '$', at most 32 characters.
   */
  @Required
  @Size(max = Limits.MAX_NAME)
  public String user;

  /**
   * Secret key holding the private key (OpenSSH or PEM; ed25519, ECDSA or RSA). Required by the
   * operator.
   */
  public SecretKeyRef privateKeySecretRef;

  /**
   * Secret key holding the passphrase of the privateKeySecretRef key, when that key is encrypted.
   * Used by the operator, which reads it the way it reads the key; never logged or shown.
   */
  public SecretKeyRef privateKeyPassphraseSecretRef;

  /**
   * Secret key holding known_hosts lines for the host (and for jump hosts that name none of their
   * own). Required by the operator unless insecureSkipHostKeyVerification is true.
   */
  public SecretKeyRef knownHostsSecretRef;

  /**
   * Private key file on the machine running the CLI (instead of privateKeySecretRef). Without it
   * the CLI logs in with the keys of the running ssh-agent (SSH_AUTH_SOCK).
   */
  @Size(max = Limits.MAX_PATH)
  public String privateKeyFile;

  /**
   * Name of an environment variable of the CLI's shell holding the passphrase of privateKeyFile,
   * when that key is encrypted, e.g. SRT_SSH_PASSPHRASE. The value is never printed.
   */
  @Size(max = Limits.MAX_ENV_NAME)
  public String privateKeyPassphraseEnv;

  /**
   * known_hosts file on the machine running the CLI (instead of knownHostsSecretRef). Without it
   * the CLI reads ~/.ssh/known_hosts.
   */
  @Size(max = Limits.MAX_PATH)
  public String knownHostsFile;

  /**
   * Jump hosts (bastions) to pass, in order, before the host, as OpenSSH's ProxyJump: the
   * connection to each goes through the one before it, and the last one resolves and reaches
   * spec.ssh.host. Each defaults to this block's user, key, passphrase and known_hosts.
   */
  @Size(max = Limits.MAX_JUMPS)
  public List<SshJumpSpec> proxyJump;

  /**
   * Accept any host key (of the host, and of jump hosts that name no known_hosts of their own).
   * Never the default; for throw-away test hosts only.
   */
  public Boolean insecureSkipHostKeyVerification;

  /** Timeout for establishing the connection, e.g. 10s. Default 10s. */
  @Size(max = Limits.MAX_WORD)
  @Default("10s")
  public String connectTimeout;
}
