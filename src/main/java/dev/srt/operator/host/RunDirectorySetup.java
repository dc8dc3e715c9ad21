package dev.srt.operator.host;

import dev.srt.operator.render.Shell;

/** The bash that lays out a run directory and installs the script read from stdin (both backends). */
final class RunDirectorySetup {
  private RunDirectorySetup() {}

  /** Creates logs/ and results/, then writes stdin to the script atomically (temp file, chmod, rename). */
  static String fromStdin(RunDirectory dir) {
    String script = Shell.quote(dir.script());
    return "mkdir -p -- " + Shell.quote(dir.logs()) + " " + Shell.quote(dir.results()) + "\n"
        + "tmp=$(mktemp -- " + Shell.quote(dir.script() + ".tmp.XXXXXX") + ")\n"
        + "cat >\"$tmp\"\n"
        + "chmod 0755 \"$tmp\"\n"
        + "mv -f -- \"$tmp\" " + script + "\n";
  }
}
