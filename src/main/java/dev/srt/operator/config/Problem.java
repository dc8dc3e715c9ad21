package dev.srt.operator.config;

/**
 * One thing wrong (or worth a warning) with an input, addressed by its field path, e.g.
 * {@code spec.arms[1].dynamo.policyCatalog.rev}. The location is known only for input read from
 * a file.
 *
 * <p>The path and message are escaped ({@link Echo#escape}) so that no value of the input can add a
 * line, move the cursor or reorder text where the problem is shown; values in messages should also
 * be cut with {@link Echo#value}.
 */
public record Problem(Severity severity, String path, String message, Location location) {
  public Problem {
    path = Echo.escape(path);
    message = Echo.escape(message);
  }

  public enum Severity {
    ERROR,
    WARNING
  }

  /** Where in a file a value was written; the file's name escaped as the path and message are. */
  public record Location(String file, int line) {
    public Location {
      file = Echo.escape(file);
    }
  }

  public static Problem error(String path, String message) {
    return new Problem(Severity.ERROR, path, message, null);
  }

  public static Problem warning(String path, String message) {
    return new Problem(Severity.WARNING, path, message, null);
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }

  public Problem at(Location where) {
    return new Problem(severity, path, message, where);
  }

  /** {@code path: message} (just the message for a whole file), the form used in status conditions and events. */
  public String describe() {
    return (severity == Severity.WARNING ? "warning: " : "") + (path.isEmpty() ? "" : path + ": ") + message;
  }

  /** {@code FILE:LINE: PATH: message}, the form the CLI prints. */
  @Override
  public String toString() {
    return location == null ? describe() : location.file() + ":" + location.line() + ": " + describe();
  }
}
