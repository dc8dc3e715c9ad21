package dev.srt.operator.host;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@link Transport} on the machine this JVM runs on ({@code transport: local}), with the same
 * semantics as {@link SshTransport}: bash, a host-side timeout, output captured in full.
 *
 * <p>Output goes to temporary files rather than pipes: nothing needs draining while the command
 * runs, and a detached process started by the command cannot hold the call open.
 */
public final class LocalTransport implements Transport {
  private static final File DEV_NULL = new File("/dev/null");
  /** How long a timed-out command gets to react to TERM before it is killed. */
  private static final Duration TERM_GRACE = Duration.ofSeconds(2);

  @Override
  public ExecResult exec(String commandLine, byte[] stdin, Duration timeout) throws HostException {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("srt-exec-");
      Path in = dir.resolve("stdin");
      Path out = dir.resolve("stdout");
      Path err = dir.resolve("stderr");
      if (stdin != null) {
        Files.write(in, stdin);
      }
      Process process = new ProcessBuilder(GuardedCommand.argv(commandLine, timeout))
          .redirectInput(stdin == null ? DEV_NULL : in.toFile())
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
      if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        kill(process);
        throw new HostException(HostException.Kind.TIMEOUT,
            describe() + ": command did not finish within " + timeout + " and was killed");
      }
      return new ExecResult(process.exitValue(), read(out), read(err));
    } catch (IOException e) {
      throw new HostException(HostException.Kind.IO, describe() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HostException(HostException.Kind.IO, describe() + ": interrupted", e);
    } finally {
      deleteQuietly(dir);
    }
  }

  @Override
  public String describe() {
    return "local";
  }

  @Override
  public void close() {
    // Nothing is held between calls.
  }

  @Override
  public String toString() {
    return "LocalTransport";
  }

  /** TERM reaches timeout(1), which passes it on to the command's process group; KILL if that is not enough. */
  private static void kill(Process process) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(TERM_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }

  private static String read(Path file) throws IOException, HostException {
    if (Files.size(file) > SshTransport.MAX_OUTPUT_BYTES) {
      throw new HostException(HostException.Kind.IO,
          "local: command output exceeded " + SshTransport.MAX_OUTPUT_BYTES + " bytes");
    }
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A leftover temp directory is harmless.
    }
  }
}
