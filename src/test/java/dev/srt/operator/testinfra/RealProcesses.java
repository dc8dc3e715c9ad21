package dev.srt.operator.testinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Real programs a test starts (etcd, nats-server, Dynamo's frontend and mockers, ...), each with
 * its output in {@code <dir>/logs/<name>.log} and {@code dir} as working directory, as a run
 * directory holds them. {@link #close} ends every process tree it started: TERM to the whole
 * tree, then KILL to whatever is left after a grace period.
 */
public final class RealProcesses implements AutoCloseable {
  private static final long GRACE_SECONDS = 10;

  private final Path dir;
  private final Map<String, Process> started = new LinkedHashMap<>();

  public RealProcesses(Path dir) {
    this.dir = dir;
  }

  /** A TCP port that was free a moment ago (bound to 0 and released), for a server of the test. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Path dir() {
    return dir;
  }

  /**
   * Starts {@code argv} with {@code env} added to this JVM's environment; stdout and stderr go to
   * {@code logs/<name>.log}.
   */
  public Process start(String name, List<String> argv, Map<String, String> env) throws IOException {
    Path log = log(name);
    Files.createDirectories(log.getParent());
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    pb.environment().putAll(env);
    Process p = pb.start();
    started.put(name, p);
    return p;
  }

  public Path log(String name) {
    return dir.resolve("logs").resolve(name + ".log");
  }

  /** The last {@code chars} characters of a process's log, for failure messages. */
  public String tail(String name, int chars) {
    try {
      String text = Files.readString(log(name));
      return text.length() <= chars ? text : text.substring(text.length() - chars);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Names of the started processes that have exited, with their exit codes. */
  public List<String> exited() {
    List<String> out = new ArrayList<>();
    started.forEach((name, p) -> {
      if (!p.isAlive()) {
        out.add(name + " (exit " + p.exitValue() + ")");
      }
    });
    return out;
  }

  /** The ends of the logs of the processes that have exited, for failure messages. */
  public String exitedLogs(int chars) {
    StringBuilder out = new StringBuilder();
    started.forEach((name, p) -> {
      if (!p.isAlive()) {
        out.append("--- ").append(name).append(" (exit ").append(p.exitValue()).append("):\n").append(tail(name, chars)).append('\n');
      }
    });
    return out.toString();
  }

  @Override
  public void close() {
    List<ProcessHandle> all = new ArrayList<>();
    for (Process p : started.values()) {
      // children first: a Python launcher's workers would otherwise outlive it
      p.toHandle().descendants().forEach(all::add);
      all.add(p.toHandle());
    }
    all.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GRACE_SECONDS);
    for (ProcessHandle h : all) {
      long left = deadline - System.nanoTime();
      try {
        h.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
    started.clear();
  }
}
