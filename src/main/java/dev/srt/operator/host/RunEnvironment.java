package dev.srt.operator.host;

import java.util.List;

/**
 * The environment a run starts with: the submitting shell's, minus the variables that say "this
 * is an SSH session". A run is not one, and bash takes {@code SSH_CLIENT} as a sign that it was
 * started by sshd: a {@code bash -c} with {@code SHLVL} below 2 then reads {@code ~/.bashrc}. Under
 * {@code srun} that is exactly what the scripts' {@code bash -c} processes are, and a
 * {@code ~/.bashrc} that puts pyenv or conda first on PATH would hide the interpreter the script
 * chose (the cluster's {@code path}) from the engines and sidecars.
 */
final class RunEnvironment {
  private RunEnvironment() {}

  /** {@code env -u ...}: the start of the command line that launches a run. */
  static final List<String> ENV_PREFIX = List.of("env", "-u", "SSH_CLIENT", "-u", "SSH2_CLIENT", "-u", "SSH_CONNECTION",
      "-u", "SSH_TTY");
}
