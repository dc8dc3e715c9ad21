package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import java.time.Duration;
import java.util.List;

/**
 * Wraps a command line so the host kills it by itself once its time is up: GNU {@code timeout}
 * sends TERM to the command's whole process group, then KILL if it lingers. Transports also
 * stop waiting (and signal the command) at the deadline; this wrapper is what still works when
 * the connection is gone or the SSH server ignores signal requests. It runs a little later than the
 * client deadline so that the client reports {@link HostException.Kind#TIMEOUT} rather than a
 * killed command's exit code.
 */
final class GuardedCommand {
  /** How much later than the client deadline the host-side timeout fires. */
  static final Duration HOST_MARGIN = Duration.ofSeconds(2);
  /** Time between TERM and KILL on the host. */
  static final Duration KILL_AFTER = Duration.ofSeconds(5);

  private GuardedCommand() {}

  /** argv that runs {@code commandLine} with bash under a host-side timeout. */
  static List<String> argv(String commandLine, Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
    long seconds = ceilSeconds(timeout.plus(HOST_MARGIN));
    return List.of("timeout", "-k", KILL_AFTER.toSeconds() + "s", seconds + "s", "bash", "-c", commandLine);
  }

  /** The same as one line for a login shell; {@code exec} makes the signal of a channel reach timeout. */
  static String line(String commandLine, Duration timeout) {
    return "exec " + Shell.join(argv(commandLine, timeout));
  }

  private static long ceilSeconds(Duration d) {
    return d.toMillis() / 1000 + (d.toMillis() % 1000 == 0 ? 0 : 1);
  }
}
