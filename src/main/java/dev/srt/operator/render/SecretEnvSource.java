package dev.srt.operator.render;

import dev.srt.operator.base.Shell;
import dev.srt.operator.plan.RunPlan;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The script's side of the secret environment: it sources the run directory's {@code secret.env}
 * (mode 0600, written by the host layer just before the run starts) before any process starts, so
 * the values reach every process through the environment and never through the script's text or a
 * command line. A run started by hand without the file takes the variables from its own
 * environment; one that has neither fails with {@code SecretEnvMissing}.
 */
final class SecretEnvSource {
  /** The file's name in the run directory. */
  static final String FILE_NAME = "secret.env";

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private SecretEnvSource() {}

  /** Right after {@code cd "$RUN_DIR"}: export what the file holds. */
  static void source(RunPlan plan, Consumer<String> line) {
    if (plan.secretEnv().isEmpty()) {
      return;
    }
    plan.secretEnv().forEach(SecretEnvSource::checkName);
    line.accept("# Secret variables (" + String.join(", ", plan.secretEnv()) + "): values from " + FILE_NAME
        + " (mode 0600), written when the run was submitted.");
    line.accept("# shellcheck disable=SC1091");
    line.accept("if [ -f " + FILE_NAME + " ]; then set -a; . ./" + FILE_NAME + "; set +a; fi");
  }

  /** After {@code srt_begin}, so a missing variable fails the run with an event. */
  static void require(RunPlan plan, Consumer<String> line) {
    for (String name : plan.secretEnv()) {
      line.accept("[ -n \"${" + checkName(name) + "+x}\" ] || srt_fail SecretEnvMissing "
          + Shell.quote(name + " is not set: no " + FILE_NAME + " in the run directory and not in the environment"));
    }
  }

  /** Names come from validated specs; a name that is not one would be shell text. */
  private static String checkName(String name) {
    if (!ENV_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not an environment variable name: " + name);
    }
    return name;
  }
}
