package dev.srt.operator.host;

import dev.srt.operator.base.Shell;

/**
 * The bash that lays out a run directory and installs files read from stdin (both backends). The
 * run directory is 0700 and its script 0600: the script runs as {@code bash run.sh} or through
 * {@code sbatch}, neither needs the x bit, and nobody else on the host reads the run's files.
 */
final class RunDirectorySetup {
  private RunDirectorySetup() {}

  /** Creates the run directory (0700, also when it already existed), logs/ and results/. */
  static String runDirectory(RunDirectory dir) {
    String path = Shell.quote(dir.path());
    return "mkdir -p -m 0700 -- " + path + "\n"
        + "chmod 0700 -- " + path + "\n"
        + "mkdir -p -- " + Shell.quote(dir.logs()) + " " + Shell.quote(dir.results()) + "\n";
  }

  /** Lays out the run directory, then writes stdin to the script atomically (temp file, chmod 0600, rename). */
  static String fromStdin(RunDirectory dir) {
    return runDirectory(dir) + installRest(dir.script());
  }

  /**
   * Lays out the run directory, then writes stdin to its {@code secret.env} atomically. mktemp
   * creates the temporary file 0600 and the umask keeps it so; the content never is an argument.
   */
  static String secretEnvFromStdin(RunDirectory dir) {
    return "set -e\n"
        + "umask 077\n"
        + runDirectory(dir)
        + installRest(dir.secretEnv());
  }

  /** Lays out the run directory, then writes stdin to {@code file} (its plan.json, its record.json) atomically. */
  static String companionFromStdin(RunDirectory dir, String file) {
    return "set -e\n" + runDirectory(dir) + installRest(file);
  }

  /**
   * Writes the next {@code bytes} bytes of stdin to {@code target} atomically, leaving the rest of
   * stdin for the next reader: GNU {@code head -c} reads no more than its count.
   */
  static String installBytes(String target, int bytes) {
    return install(target, "head -c " + bytes);
  }

  /** Writes the rest of stdin to {@code target} atomically. */
  static String installRest(String target) {
    return install(target, "cat");
  }

  private static String install(String target, String reader) {
    return "tmp=$(mktemp -- " + Shell.quote(target + ".tmp.XXXXXX") + ")\n"
        + "trap 'rm -f -- \"$tmp\"' EXIT\n"
        + reader + " >\"$tmp\"\n"
        + "chmod 0600 \"$tmp\"\n"
        + "mv -f -- \"$tmp\" " + Shell.quote(target) + "\n"
        + "trap - EXIT\n";
  }
}
