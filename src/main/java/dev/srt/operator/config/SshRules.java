package dev.srt.operator.config;

import dev.srt.operator.api.SecretKeyRef;
import dev.srt.operator.api.SshJumpSpec;
import dev.srt.operator.api.SshNames;
import dev.srt.operator.api.SshSpec;
import java.util.List;

/**
 * The rules of a GpuCluster's ssh block and its jump hosts. No key and no known_hosts is valid:
 * the CLI then uses the ssh-agent and ~/.ssh/known_hosts, and the operator, which needs Secrets,
 * says so when it connects ({@code reconcile/ClusterPolicy}).
 */
final class SshRules {
  static final String ENV_NAME_MESSAGE = "must be an environment variable name: letters, digits and '_', not starting with a digit";
  static final String PASSPHRASE_SECRET_WITHOUT_KEY = "a passphrase needs the key it decrypts: set privateKeySecretRef";
  static final String PASSPHRASE_ENV_WITHOUT_KEY = "a passphrase needs the key it decrypts: set privateKeyFile (the ssh-agent's keys need none)";

  private SshRules() {}

  static void check(List<Problem> out, SshSpec ssh) {
    if (Rules.blank(ssh.host)) {
      out.add(Problem.error("spec.ssh.host", "is required"));
    } else {
      host(out, "spec.ssh.host", ssh.host);
    }
    if (Rules.blank(ssh.user)) {
      out.add(Problem.error("spec.ssh.user", "is required"));
    } else {
      user(out, "spec.ssh.user", ssh.user);
    }
    port(out, "spec.ssh.port", ssh.port);
    keys(out, "spec.ssh", ssh.privateKeySecretRef, ssh.privateKeyPassphraseSecretRef, ssh.knownHostsSecretRef,
        ssh.privateKeyFile, ssh.privateKeyPassphraseEnv);
    Rules.duration(out, "spec.ssh.connectTimeout", ssh.connectTimeout);
    if (ssh.proxyJump == null) {
      return;
    }
    for (int i = 0; i < ssh.proxyJump.size(); i++) {
      String p = FieldPath.index("spec.ssh.proxyJump", i);
      SshJumpSpec hop = ssh.proxyJump.get(i);
      if (hop == null) {
        out.add(Problem.error(p, "must be a jump host: {host, port, user}"));
        continue;
      }
      if (Rules.blank(hop.host)) {
        out.add(Problem.error(p + ".host", "is required"));
      } else {
        host(out, p + ".host", hop.host);
      }
      if (hop.user != null && hop.user.isBlank()) {
        out.add(Problem.error(p + ".user", "must not be blank (leave it out for spec.ssh.user)"));
      } else if (hop.user != null) {
        user(out, p + ".user", hop.user);
      }
      port(out, p + ".port", hop.port);
      keys(out, p, hop.privateKeySecretRef, hop.privateKeyPassphraseSecretRef, hop.knownHostsSecretRef,
          hop.privateKeyFile, hop.privateKeyPassphraseEnv);
    }
  }

  /**
   * A DNS host name, an IPv4 or a bracketless IPv6 address ({@link SshNames}): no space, control
   * character, '@' or leading '-', which a connection or a message could read as something else.
   */
  private static void host(List<Problem> out, String p, String host) {
    if (!SshNames.isHost(host)) {
      out.add(Problem.error(p, SshNames.HOST_MESSAGE + "; found \"" + Echo.value(host) + "\""));
    }
  }

  private static void user(List<Problem> out, String p, String user) {
    if (!SshNames.isUser(user)) {
      out.add(Problem.error(p, SshNames.USER_MESSAGE + "; found \"" + Echo.value(user) + "\""));
    }
  }

  private static void port(List<Problem> out, String p, Integer port) {
    if (port != null && (port < 1 || port > 65535)) {
      out.add(Problem.error(p, "must be between 1 and 65535"));
    }
  }

  private static void keys(List<Problem> out, String p, SecretKeyRef key, SecretKeyRef passphrase, SecretKeyRef knownHosts,
      String keyFile, String passphraseEnv) {
    secretRef(out, p + ".privateKeySecretRef", key);
    secretRef(out, p + ".privateKeyPassphraseSecretRef", passphrase);
    secretRef(out, p + ".knownHostsSecretRef", knownHosts);
    if (passphrase != null && key == null) {
      out.add(Problem.error(p + ".privateKeyPassphraseSecretRef", PASSPHRASE_SECRET_WITHOUT_KEY));
    }
    if (passphraseEnv != null) {
      if (!Rules.ENV_NAME.matcher(passphraseEnv).matches()) {
        out.add(Problem.error(p + ".privateKeyPassphraseEnv", ENV_NAME_MESSAGE));
      }
      if (keyFile == null) {
        out.add(Problem.error(p + ".privateKeyPassphraseEnv", PASSPHRASE_ENV_WITHOUT_KEY));
      }
    }
  }

  private static void secretRef(List<Problem> out, String p, SecretKeyRef ref) {
    if (ref != null && (Rules.blank(ref.name) || Rules.blank(ref.key))) {
      out.add(Problem.error(p, "needs name and key"));
    }
  }
}
