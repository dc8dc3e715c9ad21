package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "has(self.privateKeySecretRef) || has(self.privateKeyFile)", message = "set privateKeySecretRef (operator) or privateKeyFile (CLI)", fieldPath = ".privateKeySecretRef")
@ValidationRule(value = "has(self.knownHostsSecretRef) || has(self.knownHostsFile) || (has(self.insecureSkipHostKeyVerification) && self.insecureSkipHostKeyVerification)",
    message = "set knownHostsSecretRef or knownHostsFile, or explicitly insecureSkipHostKeyVerification: true", fieldPath = ".knownHostsSecretRef")
@ValidationRule(value = "!has(self.connectTimeout) || self.connectTimeout.matches('^([0-9]+(ms|s|m|h))+$')",
    message = "must be a duration such as 10s", fieldPath = ".connectTimeout")
public class SshSpec {
  /** Host name or address of the login node or GPU host. */
  @Required
  @Size(max = Limits.MAX_NAME)
  public String host;

  /** SSH port. Default 22. */
  @Min(Limits.MIN_PORT)
  @Max(Limits.MAX_PORT)
  @Default("22")
  public Integer port;

  /** User to log in as. */
  @Required
  @Size(max = Limits.MAX_NAME)
  public String user;

  /** Secret key holding the private key (OpenSSH or PEM; ed25519 or RSA). Used by the operator. */
  public SecretKeyRef privateKeySecretRef;

  /** Secret key holding known_hosts lines for the host. Used by the operator. */
  public SecretKeyRef knownHostsSecretRef;

  /** Private key file on the machine running the CLI (instead of privateKeySecretRef). */
  @Size(max = Limits.MAX_PATH)
  public String privateKeyFile;

  /** known_hosts file on the machine running the CLI (instead of knownHostsSecretRef). */
  @Size(max = Limits.MAX_PATH)
  public String knownHostsFile;

  /** Accept any host key. Never the default; for throw-away test hosts only. */
  public Boolean insecureSkipHostKeyVerification;

  /** Timeout for establishing the connection, e.g. 10s. Default 10s. */
  @Size(max = Limits.MAX_WORD)
  @Default("10s")
  public String connectTimeout;
}
