package dev.srt.operator.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Python distribution metadata ({@code <name>-<version>.dist-info/METADATA}) for what the emulated
 * host has "installed", so that the real interpreter's {@code importlib.metadata} reports the same
 * versions as the emulated pip (a run's facts ask it). Only directories this class wrote (its
 * {@code INSTALLER} file) are ever replaced or removed.
 */
final class DistInfo {
  static final String INSTALLER = "srt-operator-emulator";
  /** What every emulated host comes with: the engine, its framework, the benchmarks and the Model Gateway. */
  static final Map<String, String> PREINSTALLED = Map.of(
      "sglang", SglangWorker.VERSION,
      "torch", "2.9.1+emulated",
      "aiperf", AiPerf.VERSION,
      "sglang-router", SglModelGateway.VERSION);

  private DistInfo() {}

  /** Makes {@code dir}'s emulator-written metadata exactly {@code versions} (name → version). */
  static void sync(Path dir, Map<String, String> versions) throws IOException {
    Files.createDirectories(dir);
    List<Path> ours;
    try (Stream<Path> entries = Files.list(dir)) {
      ours = entries.filter(p -> p.getFileName().toString().endsWith(".dist-info") && written(p)).toList();
    }
    for (Path p : ours) {
      delete(p);
    }
    for (Map.Entry<String, String> e : versions.entrySet()) {
      Path info = dir.resolve(e.getKey().replaceAll("[-_.]+", "_") + "-" + e.getValue() + ".dist-info");
      Files.createDirectories(info);
      Files.writeString(info.resolve("METADATA"), "Metadata-Version: 2.1\nName: " + e.getKey() + "\nVersion: " + e.getValue() + "\n");
      Files.writeString(info.resolve("INSTALLER"), INSTALLER + "\n");
    }
  }

  private static boolean written(Path info) {
    try {
      return Files.readString(info.resolve("INSTALLER")).strip().equals(INSTALLER);
    } catch (IOException e) {
      return false;
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
