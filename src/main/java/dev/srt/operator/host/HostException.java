package dev.srt.operator.host;

/**
 * A host could not be used: not reached, refused us, answered too late, or a remote step failed.
 * Messages name the host ({@link Transport#describe()}) and never contain key material.
 */
public class HostException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What went wrong, coarse enough for a caller to choose a reaction (retry, alert, give up). */
  public enum Kind {
    /** No connection: refused, unknown host, network down, or the session dropped. */
    UNREACHABLE,
    /** The host rejected our credentials, or the private key could not be used. */
    AUTH,
    /** The host key is not the one in known_hosts (or no entry exists): possibly an impostor. */
    HOST_KEY,
    /** A command did not finish in time; it has been killed. */
    TIMEOUT,
    /** Local or transport I/O failed, or output was not what the protocol promises. */
    IO,
    /** The host ran the command, and the command reported a failure (e.g. sbatch refused a job). */
    COMMAND_FAILED
  }

  private final Kind kind;

  public HostException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public HostException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  @Override
  public String toString() {
    return "HostException(" + kind + "): " + getMessage();
  }
}
