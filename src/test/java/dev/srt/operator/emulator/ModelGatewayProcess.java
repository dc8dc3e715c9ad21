package dev.srt.operator.emulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real SGLang Model Gateway ({@code python -m sglang_router.launch_router} from the pinned
 * environment) as a child process of a test: its output goes to a log file the failure messages
 * quote, and {@link #close()} ends it and everything it started.
 */
final class ModelGatewayProcess implements AutoCloseable {
  private final Process process;
  private final Path log;

  private ModelGatewayProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  static ModelGatewayProcess start(List<String> argv) throws IOException {
    Path log = Files.createTempFile("sgl-model-gateway-", ".log");
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new ModelGatewayProcess(p, log);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** The end of its log, for assertion messages. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.forEach(ProcessHandle::destroy);
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        tree.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
      try {
        Files.deleteIfExists(log);
      } catch (IOException e) {
        // a temp file left behind is harmless
      }
    }
  }

  /** A port free at this moment, for a server the test starts next. */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
