package dev.srt.operator.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What a load ladder saves against srtctl's sweep, which starts one job per load point and loads
 * the model in each. On this machine as the emulated GPU host, with a fixed emulated model load
 * time ({@code SRT_EMULATOR_STARTUP_DELAY_MS}): a 5-level × 3-arm × 3-repetition comparison as one
 * ladder per run, then one arm's single repetition as one job per level (every arm and repetition
 * of the sweep is alike, so the sweep's totals are that times nine). Counts model loads (worker
 * processes started) and the share of the GPUs' held time (run-started to finished, from each run's
 * events.jsonl) spent measuring (level-started to level-finished). Targets (bench/README.md): five
 * times fewer model loads, at least 60% of the held time measuring.
 */
public final class LadderBenchmark {
  private static final List<Integer> LEVELS = List.of(8, 16, 32, 48, 64);
  private static final int ARMS = 3;
  private static final int REPETITIONS = 3;

  private LadderBenchmark() {}

  /** What a set of run directories add up to. */
  record Usage(int runs, int modelLoads, Duration held, Duration measuring) {
    Usage plus(Usage o) {
      return new Usage(runs + o.runs, modelLoads + o.modelLoads, held.plus(o.held), measuring.plus(o.measuring));
    }

    double measuringShare() {
      return held.isZero() ? 0 : (double) measuring.toMillis() / held.toMillis();
    }

    String text() {
      return String.format(Locale.ROOT, "runs %d, model loads %d, GPUs held %.1f s, measuring %.1f s (%.1f%%)", runs, modelLoads,
          held.toMillis() / 1000.0, measuring.toMillis() / 1000.0, 100 * measuringShare());
    }
  }

  public static void main(String[] args) throws Exception {
    long loadMs = args.length > 0 ? Long.parseLong(args[0]) : 10_000;
    Path dir = Path.of("target/bench/ladder").toAbsolutePath();
    deleteTree(dir);
    Files.createDirectories(dir);
    Path host = dir.resolve("host");
    Path cluster = dir.resolve("cluster.yaml");
    Files.writeString(cluster, Files.readString(Path.of("examples/local-emulated-cluster.yaml"))
        .replace("workDir: /tmp/srt-emulated-host", "workDir: " + host));

    String example = Files.readString(Path.of("examples/router-capacity.yaml"));
    String ladder = comparison(example, "ladder-bench", LEVELS, REPETITIONS, loadMs, true);
    apply(dir, "ladder-bench", ladder, cluster);
    Usage ladderUsage = usage(host.resolve("default/ladder-bench"));

    Usage point = new Usage(0, 0, Duration.ZERO, Duration.ZERO);
    for (int level : LEVELS) {
      String name = "point-bench-c" + level;
      apply(dir, name, comparison(example, name, List.of(level), 1, loadMs, false), cluster);
      point = point.plus(usage(host.resolve("default/" + name)));
    }
    int sweepRuns = point.runs() * ARMS * REPETITIONS;
    int sweepLoads = point.modelLoads() * ARMS * REPETITIONS;

    System.out.printf(Locale.ROOT, "ladder: %d levels x %d arms x %d runs, model load %.1f s: %s%n", LEVELS.size(), ARMS, REPETITIONS,
        loadMs / 1000.0, ladderUsage.text());
    System.out.println("one job per point, one arm's one repetition: " + point.text());
    System.out.printf(Locale.ROOT, "one job per point, the whole comparison: runs %d, model loads %d, GPUs held %.1f s%n", sweepRuns,
        sweepLoads, point.held().toMillis() / 1000.0 * ARMS * REPETITIONS);
    System.out.printf(Locale.ROOT, "ladder: model loads %d against %d: %.1fx fewer%n", ladderUsage.modelLoads(), sweepLoads,
        (double) sweepLoads / Math.max(1, ladderUsage.modelLoads()));
    System.out.printf(Locale.ROOT, "ladder: measuring share %.1f%%%n", 100 * ladderUsage.measuringShare());
    System.out.printf(Locale.ROOT, "one job per point: measuring share %.1f%%%n", 100 * point.measuringShare());
  }

  /**
   * The capacity example as the benchmark's comparison: its ladder replaced by {@code levels}, a
   * third arm ({@code ladder}) or only cache-aware (one job per point), {@code repetitions} runs,
   * the engines taking {@code loadMs} to load the model, and the dataset's full size per level.
   */
  static String comparison(String example, String name, List<Integer> levels, int repetitions, long loadMs, boolean threeArms) {
    String yaml = example.replace("name: router-capacity", "name: " + name)
        .replaceFirst("levels: \\[[0-9, ]+\\]", "levels: " + levels)
        .replace("repetitions: 3", "repetitions: " + repetitions)
        .replace("gsp-num-groups: 32", "gsp-num-groups: 64")
        .replace("    kvEvents:", "    env: {SRT_EMULATOR_STARTUP_DELAY_MS: \"" + loadMs + "\"}\n    kvEvents:");
    if (threeArms) {
      return yaml + """
            - name: power-of-two
              frontend:
                type: sgl-router
                source: /src/sglang/experimental/sgl-router
                args: {policy: power_of_two}
          """;
    }
    String head = yaml.substring(0, yaml.indexOf("  arms:\n")).replace("baseline: round-robin", "baseline: cache-aware");
    return head + "  arms:\n" + yaml.substring(yaml.indexOf("  - name: cache-aware"));
  }

  private static void apply(Path dir, String name, String yaml, Path cluster) throws Exception {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, yaml);
    Process p = new ProcessBuilder("java", "-jar", "target/srt-operator.jar", "apply", "-f", file.toString(), "--cluster",
        cluster.toString()).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("apply of " + name + " failed: see " + dir.resolve(name + ".log"));
    }
  }

  /** The runs under a comparison's directory (arm/runId/events.jsonl). */
  static Usage usage(Path comparison) throws IOException {
    Usage total = new Usage(0, 0, Duration.ZERO, Duration.ZERO);
    try (Stream<Path> files = Files.walk(comparison, 3)) {
      for (Path events : files.filter(f -> f.getFileName().toString().equals("events.jsonl")).sorted().toList()) {
        total = total.plus(usageOf(events));
      }
    }
    return total;
  }

  static Usage usageOf(Path events) throws IOException {
    Instant started = null;
    Instant finished = null;
    Instant levelStarted = null;
    int loads = 0;
    Duration measuring = Duration.ZERO;
    for (String line : Files.readAllLines(events)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode e = Mappers.json().readTree(line);
      Instant ts = Instant.parse(e.path("ts").asText());
      switch (e.path("event").asText()) {
        case "run-started" -> started = ts;
        case "finished" -> finished = ts;
        case "level-started" -> levelStarted = ts;
        case "level-finished" -> {
          measuring = measuring.plus(Duration.between(levelStarted, ts));
          levelStarted = null;
        }
        case "process-started" -> loads += "worker".equals(e.path("role").asText()) ? 1 : 0;
        default -> { }
      }
    }
    if (started == null || finished == null) {
      throw new IllegalStateException(events + " has no run-started or finished event");
    }
    return new Usage(1, loads, Duration.between(started, finished), measuring);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
