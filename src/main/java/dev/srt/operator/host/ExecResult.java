package dev.srt.operator.host;

/** What a command run on a host printed, and how it exited. */
public record ExecResult(int exitCode, String stdout, String stderr) {

  public boolean succeeded() {
    return exitCode == 0;
  }

  /**
   * Returns this result if the command exited 0, else throws {@link HostException.Kind#COMMAND_FAILED}
   * naming {@code what} and the command's own error text.
   */
  public ExecResult orThrow(String what) throws HostException {
    if (succeeded()) {
      return this;
    }
    String detail = stderr.isBlank() ? stdout : stderr;
    throw new HostException(HostException.Kind.COMMAND_FAILED,
        what + " failed (exit " + exitCode + "): " + abbreviate(detail.strip(), 2000));
  }

  public static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "...";
  }
}
