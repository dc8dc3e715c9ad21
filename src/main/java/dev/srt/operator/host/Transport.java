package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import java.time.Duration;
import java.util.List;

/**
 * Runs bash command lines on one host (over SSH or on this machine). Implementations are
 * thread-safe; the operator calls them from several threads.
 *
 * <p>Every command runs under {@code bash -c} and is killed when its timeout passes, on the host
 * as well as here, so a hung command never lingers.
 */
public interface Transport extends AutoCloseable {
  Duration DEFAULT_WRITE_TIMEOUT = Duration.ofSeconds(60);

  /**
   * Runs {@code commandLine} with {@code stdin} (null: empty) and returns its exit code and output.
   * A non-zero exit is a result, not an exception.
   *
   * @throws HostException if the host cannot be reached or the command exceeds {@code timeout}
   */
  ExecResult exec(String commandLine, byte[] stdin, Duration timeout) throws HostException;

  default ExecResult exec(String commandLine, Duration timeout) throws HostException {
    return exec(commandLine, null, timeout);
  }

  /**
   * Writes {@code content} to {@code path} with permission bits {@code mode} (e.g. {@code 0755}),
   * creating parent directories. A reader sees the old file or the whole new one, never a part:
   * the bytes go to a temporary file in the same directory that is then renamed.
   */
  default void writeFile(String path, byte[] content, int mode, Duration timeout) throws HostException {
    exec(writeFileCommand(path, mode), content, timeout).orThrow("writing " + path + " on " + describe());
  }

  default void writeFile(String path, byte[] content, int mode) throws HostException {
    writeFile(path, content, mode, DEFAULT_WRITE_TIMEOUT);
  }

  /** Where this transport runs commands, for logs and messages (never includes key material). */
  String describe();

  /** Releases connections; further calls fail. */
  @Override
  void close();

  /** The command behind {@link #writeFile}; reads the content from stdin. */
  static String writeFileCommand(String path, int mode) {
    if (mode < 0 || mode > 07777) {
      throw new IllegalArgumentException("not a permission mode: " + Integer.toOctalString(mode));
    }
    String quoted = Shell.quote(path);
    return "set -e; mkdir -p -- \"$(dirname -- " + quoted + ")\"; "
        + "tmp=$(mktemp -- " + Shell.quote(path + ".tmp.XXXXXX") + "); "
        + "trap 'rm -f -- \"$tmp\"' EXIT; "
        + "cat >\"$tmp\"; "
        + Shell.join(List.of("chmod", String.format("%04o", mode))) + " \"$tmp\"; "
        + "mv -f -- \"$tmp\" " + quoted;
  }
}
