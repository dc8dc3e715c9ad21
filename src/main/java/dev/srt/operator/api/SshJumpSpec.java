package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * One jump host (bastion) between srt-operator and the cluster's host, as an entry of OpenSSH's
 * ProxyJump. Every field but host defaults to the target's (spec.ssh): the same user, key,
 * passphrase and known_hosts.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = SshNames.CEL_SSH_HOST, message = SshNames.HOST_MESSAGE, fieldPath = ".host")
@ValidationRule(value = SshNames.CEL_SSH_USER, message = SshNames.USER_MESSAGE, fieldPath = ".user")
@ValidationRule(value = "!has(self.privateKeyPassphraseEnv) || self.privateKeyPassphraseEnv.matches('^[A-Za-z_][A-Za-z0-9_]*$')",
    message = "must be an environment variable name: letters, digits and '_', not starting with a digit",
    fieldPath = ".privateKeyPassphraseEnv")
@ValidationRule(value = "!has(self.privateKeyPassphraseSecretRef) || has(self.privateKeySecretRef)",
    message = "a passphrase needs the key it decrypts: set privateKeySecretRef", fieldPath = ".privateKeyPassphraseSecretRef")
@ValidationRule(value = "!has(self.privateKeyPassphraseEnv) || has(self.privateKeyFile)",
    message = "a passphrase needs the key it decrypts: set privateKeyFile (the ssh-agent's keys need none)",
    fieldPath = ".privateKeyPassphraseEnv")
public class SshJumpSpec {
  /**
   * Host name or address of the jump host (a DNS host name, an IPv4 address or an IPv6 address
   * without brackets). The first is resolved where srt-operator runs; each later one, and the
   * target (spec.ssh.host), by the jump host before it, as OpenSSH does.
   */
  @Required
  @Size(max = Limits.MAX_NAME)
  public String host;

  /** SSH port of the jump host. Default 22. */
  @Min(Limits.MIN_PORT)
  @Max(Limits.MAX_PORT)
  public Integer port;

  /** User to log in as on the jump host (a user name, as spec.ssh.user). Default: spec.ssh.user. */
  @Size(max = Limits.MAX_NAME)
  public String user;

  /** Secret key holding the jump host's private key. Default: the target's key (and passphrase). Operator. */
  public SecretKeyRef privateKeySecretRef;

  /** Secret key holding the passphrase of this hop's privateKeySecretRef key, when it is encrypted. Operator. */
  public SecretKeyRef privateKeyPassphraseSecretRef;

  /** known_hosts lines for the jump host, from a Secret key. Default: the target's. Operator. */
  public SecretKeyRef knownHostsSecretRef;

  /** Private key file of the jump host on the CLI's machine. Default: the target's key, or the ssh-agent. CLI. */
  @Size(max = Limits.MAX_PATH)
  public String privateKeyFile;

  /**
   * Environment variable of the CLI's shell holding the passphrase of this hop's privateKeyFile,
   * when it is encrypted. Never printed. CLI.
   */
  @Size(max = Limits.MAX_ENV_NAME)
  public String privateKeyPassphraseEnv;

  /** known_hosts file with the jump host's key on the CLI's machine. Default: the target's. CLI. */
  @Size(max = Limits.MAX_PATH)
  public String knownHostsFile;
}
