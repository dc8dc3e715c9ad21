package dev.srt.operator.cli;

import dev.srt.operator.host.RunLogs;
import dev.srt.operator.host.ExecResult;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.Transport;
import java.io.PrintStream;
import java.time.Duration;

/**
 * {@code logs --follow}: the last lines of a log, then what it gains, as {@code tail -f} prints
 * it, until the run has ended (its {@code finished} event, or its exit code when it died without
 * one) and the log has nothing more, or the user stops it (Ctrl-C). One command per poll reads the log's size, whether the run ended, and
 * the new bytes up to that size, so nothing is printed twice or skipped.
 */
final class LogFollower {
  static final Duration POLL = Duration.ofSeconds(1);
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final Transport transport;
  private final String runDir;
  private final String logName;
  private final Duration poll;
  /** Whether the run had ended at the last poll. */
  private boolean ended;

  LogFollower(Transport transport, String runDir, String logName, Duration poll) {
    this.transport = transport;
    this.runDir = runDir;
    this.logName = logName;
    this.poll = poll;
  }

  /** Prints the last {@code lines} lines, then follows; returns once the run ended and everything was printed. */
  void follow(int lines, PrintStream out) throws HostException, InterruptedException {
    long offset = read(-1, lines, out);
    while (true) {
      Thread.sleep(poll.toMillis());
      long before = offset;
      offset = read(offset, 0, out);
      if (offset == before && ended) {
        return;
      }
    }
  }

  /**
   * One poll: prints the bytes after {@code offset} (or the last {@code lines} lines at first); returns
   * the new offset. The log is read by {@link RunLogs}' rule (a regular file of the run's own logs/,
   * never through a link), and the run has ended when it wrote its finished event or its exit code.
   */
  private long read(long offset, int lines, PrintStream out) throws HostException {
    ExecResult r = RunLogs.follow(transport, runDir, logName, offset, lines, TIMEOUT);
    if (!r.succeeded()) {
      throw new HostException(HostException.Kind.COMMAND_FAILED, "cannot read " + runDir + "/logs/" + logName + ".log: "
          + (r.stderr().isBlank() ? "exit " + r.exitCode() : r.stderr().strip()));
    }
    String stdout = r.stdout();
    int nl = stdout.indexOf('\n');
    String[] head = stdout.substring(0, nl).trim().split(" ");
    long size = Long.parseLong(head[0]);
    ended = "ended".equals(head[1]);
    out.print(stdout.substring(nl + 1));
    out.flush();
    return size;
  }
}
