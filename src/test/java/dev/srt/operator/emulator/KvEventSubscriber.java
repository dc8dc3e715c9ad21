package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A ZMQ subscriber to an engine's KV events in the real programs' Python ({@code pyzmq},
 * {@code msgpack}, {@code msgspec}; {@code sglang_kv_events.py}), so what the emulated engine
 * publishes is read by the same libraries SGLang's consumers use, not by the emulator's own code.
 */
final class KvEventSubscriber implements AutoCloseable {
  private final Process process;
  private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
  private final Path stderr;

  KvEventSubscriber(String endpoint, String topic, Path dir) throws IOException {
    stderr = dir.resolve("kv-subscriber.err");
    process = new ProcessBuilder(RealProgramsEnv.bin("python"), script(dir).toString(), "subscribe", endpoint, topic)
        .redirectError(stderr.toFile()).start();
    Thread reader = new Thread(() -> read(process.getInputStream()), "kv-subscriber-out");
    reader.setDaemon(true);
    reader.start();
  }

  private void read(InputStream out) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        messages.add(Json.parse(line));
      }
    } catch (IOException e) {
      // the process was stopped
    }
  }

  /** The next message ({@code topic}, {@code seq}, {@code batch}); fails after 20 s or if the subscriber died. */
  JsonNode next() throws Exception {
    JsonNode m = messages.poll(20, TimeUnit.SECONDS);
    if (m == null || m.has("error")) {
      throw new AssertionError("no KV-event message (" + m + "); subscriber alive: " + process.isAlive()
          + ", stderr: " + Files.readString(stderr));
    }
    return m;
  }

  /**
   * Skips messages until one whose batch holds an {@code AllBlocksCleared}; false when none came
   * within a second (a batch sent before the subscription took hold is lost, as with any PUB socket).
   */
  boolean sawCleared() throws InterruptedException {
    for (JsonNode m = messages.poll(1, TimeUnit.SECONDS); m != null; m = messages.poll(1, TimeUnit.SECONDS)) {
      for (JsonNode e : m.path("batch").path(1)) {
        if (e.path("type").asText().equals("AllBlocksCleared")) {
          return true;
        }
      }
    }
    return false;
  }

  /** SGLang's event hashes of the whole pages of {@code ids}, computed by Python's hashlib. */
  static List<Long> pythonChain(int[] ids, int pageSize, Path dir) throws Exception {
    Process p = new ProcessBuilder(RealProgramsEnv.bin("python"), script(dir).toString(), "chain", String.valueOf(pageSize))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (var stdin = p.getOutputStream()) {
      stdin.write(Json.write(Json.mapper().valueToTree(ids)).getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError("the Python hash chain failed: " + out);
    }
    List<Long> hashes = new ArrayList<>();
    Json.parse(out).forEach(h -> hashes.add(h.asLong()));
    return hashes;
  }

  private static Path script(Path dir) {
    Path file = dir.resolve("sglang_kv_events.py");
    if (!Files.exists(file)) {
      try (InputStream in = KvEventSubscriber.class.getResourceAsStream("sglang_kv_events.py")) {
        Files.copy(in, file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return file;
  }

  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }
}
