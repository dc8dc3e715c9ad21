package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The emulated host's memory across processes ({@code SRT_EMULATOR_STATE}): which tool calls ran
 * ({@code tool-calls.jsonl}) and which Python packages are "installed" ({@code packages.json}).
 * Scripts run install stages concurrently, so every change happens under a file lock.
 */
public final class EmulatorState {
  public static final String ENV = "SRT_EMULATOR_STATE";
  public static final String TOOL_CALLS = "tool-calls.jsonl";
  public static final String PACKAGES = "packages.json";
  public static final String IMPORT_ROOTS = "import-roots";

  private final Path dir;

  public EmulatorState(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
  }

  /** The state named by the environment, if any; without it, emulated programs assume a full install. */
  public static Optional<EmulatorState> fromEnv(Map<String, String> env) {
    String v = env.get(ENV);
    return v == null || v.isBlank() ? Optional.empty() : Optional.of(new EmulatorState(Path.of(v)));
  }

  /** Tools always record; without the variable they use a per-user directory under the temp dir. */
  public static EmulatorState forTools(Map<String, String> env) {
    return fromEnv(env).orElseGet(() -> new EmulatorState(
        Path.of(System.getProperty("java.io.tmpdir"), "srt-emulator-state-" + System.getProperty("user.name"))));
  }

  public Path dir() {
    return dir;
  }

  public void appendToolCall(JsonNode call) {
    locked(() -> Files.writeString(dir.resolve(TOOL_CALLS), Json.write(call) + "\n", StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND));
  }

  /** {@code packages.json}'s "packages" object (empty when nothing is installed). */
  public ObjectNode packages() {
    Path f = dir.resolve(PACKAGES);
    if (!Files.isRegularFile(f)) {
      return Json.object();
    }
    try {
      JsonNode root = Json.parse(Files.readAllBytes(f));
      return root.path("packages").isObject() ? (ObjectNode) root.get("packages") : Json.object();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void updatePackages(Consumer<ObjectNode> change) {
    locked(() -> {
      ObjectNode pkgs = packages();
      change.accept(pkgs);
      ObjectNode root = Json.object();
      root.set("packages", pkgs);
      Path tmp = Files.createTempFile(dir, PACKAGES, ".tmp");
      Files.writeString(tmp, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
      Files.move(tmp, dir.resolve(PACKAGES), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    });
  }

  /** Remembers a directory whose packages source installs made importable (one per line, no repeats). */
  public void addImportRoot(Path root) {
    locked(() -> {
      Path f = dir.resolve(IMPORT_ROOTS);
      List<String> roots = Files.isRegularFile(f) ? Files.readAllLines(f) : List.of();
      if (!roots.contains(root.toString())) {
        Files.writeString(f, root + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      }
    });
  }

  private interface IoAction {
    void run() throws IOException;
  }

  private void locked(IoAction action) {
    try {
      Files.createDirectories(dir);
      try (FileChannel ch = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        FileLock lock = ch.lock();
        try {
          action.run();
        } finally {
          lock.release();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("emulator state " + dir + ": " + e.getMessage(), e);
    }
  }
}
