package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stand-in {@link AiPerf} cannot drift from the real AIPerf 0.13.0: both run the same rendered
 * command against the same emulated engine, and every file, JSON key path and value type the
 * stand-in writes is one the real tool writes too (values may differ), with the same records per
 * phase and the same statistics in each metric block the stand-in writes. The real tool writes more
 * (docs/emulator.md lists what the stand-in leaves out); the results layer reads only what both write.
 */
class RealAiPerfDriftIT {
  /** The real tool's exports of the same kind of run (src/test/resources/.../aiperf-0.13.0/ok). */
  private static final Path FIXTURE = Path.of("src/test/resources/dev/srt/operator/results/aiperf-0.13.0/ok");
  @TempDir Path dir;
  private SglangWorker worker;

  @AfterEach
  void stop() {
    if (worker != null) {
      worker.close();
    }
  }

  @Test
  void theStandInWritesTheRealToolsFilesKeysAndTypes() throws Exception {
    RealProgramsEnv.require();
    Path model = dir.resolve("model");
    EmulatedModelFiles.write(model);
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
    worker = new SglangWorker(SglangWorker.Options.parse(List.of("--model-path", model.toString(), "--served-model-name",
        EmulatedFleet.MODEL, "--port", "0", "--enable-metrics"), Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), quiet));
    worker.start();
    await().atMost(Duration.ofSeconds(10)).until(worker::isReady);
    ProcessSpec benchmark = RealAiPerfIT.benchmarks(model, """
          workload:
            tool: aiperf
            args: {synthetic-input-tokens-mean: 64, output-tokens-mean: 8, extra-inputs: "ignore_eos:true"}
            load: {mode: concurrency, levels: [2], requestsPerLevel: 6}
        """, """
          execution: {warmupRequests: 2}
        """).get(0);

    Path real = dir.resolve("real");
    Path standIn = dir.resolve("stand-in");
    assertThat(RealAiPerf.run(argv(benchmark, real), benchmark.env(), dir, "real.log")).as(Files.readString(dir.resolve("real.log"))).isZero();
    List<String> standInArgv = argv(benchmark, standIn);
    assertThat(new AiPerf(AiPerf.Options.parse(standInArgv.subList(1, standInArgv.size()), Map.of(), quiet), quiet, quiet).run()).isZero();

    assertThat(files(real)).containsAll(files(standIn)).contains("profile_export_aiperf.json", "profile_export.jsonl");
    JsonNode realExport = Json.parse(Files.readAllBytes(real.resolve("profile_export_aiperf.json")));
    JsonNode standInExport = Json.parse(Files.readAllBytes(standIn.resolve("profile_export_aiperf.json")));
    // Some metrics are left out when no request has a value, which depends on timing (no time per token when all
    // chunks arrive in one read): what the real tool wrote in this run or in the fixture run counts as its shape.
    TreeSet<String> realShape = JsonShape.of(realExport);
    realShape.addAll(JsonShape.of(Json.parse(Files.readAllBytes(FIXTURE.resolve("profile_export_aiperf.json")))));
    assertThat(realShape).containsAll(JsonShape.of(standInExport));
    for (String tag : List.of("request_count", "benchmark_duration", "request_throughput", "output_token_throughput", "time_to_first_token",
        "inter_token_latency", "request_latency", "error_summary")) {
      assertThat(standInExport.has(tag)).as("the results layer reads %s", tag).isEqualTo(realExport.has(tag)).isTrue();
    }
    standInExport.properties().forEach(e -> {
      if (e.getValue().has("unit") && realExport.has(e.getKey())) {
        assertThat(fields(standInExport.get(e.getKey()))).as("statistics of %s", e.getKey()).isEqualTo(fields(realExport.get(e.getKey())));
      }
    });
    Map<String, TreeSet<String>> realRecords = recordShapes(real);
    recordShapes(FIXTURE).forEach((phase, shape) -> realRecords.merge(phase, shape, (a, b) -> {
      a.addAll(b);
      return a;
    }));
    Map<String, TreeSet<String>> standInRecords = recordShapes(standIn);
    assertThat(standInRecords.keySet()).isEqualTo(realRecords.keySet()).containsExactly("profiling", "warmup");
    standInRecords.forEach((phase, shape) -> {
      assertThat(realRecords.get(phase)).as("records of the %s phase", phase).containsAll(shape);
      assertThat(metadata(shape)).as("metadata of the %s phase", phase).isEqualTo(metadata(realRecords.get(phase)));
    });
  }

  /** The rendered command with its artifacts in {@code out} (one directory per tool), aimed at the engine. */
  private List<String> argv(ProcessSpec benchmark, Path out) {
    List<String> argv = new ArrayList<>(benchmark.argv());
    argv.set(argv.indexOf("--url") + 1, EmulatedFleet.url(worker));
    argv.set(argv.indexOf("--output-artifact-dir") + 1, out.toString());
    return argv;
  }

  private static TreeSet<String> files(Path root) throws Exception {
    try (var walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static TreeSet<String> fields(JsonNode block) {
    TreeSet<String> out = new TreeSet<>();
    block.fieldNames().forEachRemaining(out::add);
    return out;
  }

  /** The union of the records' shapes, by phase. */
  private static Map<String, TreeSet<String>> recordShapes(Path root) throws Exception {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    for (String line : Files.readAllLines(root.resolve("profile_export.jsonl"))) {
      JsonNode r = Json.parse(line);
      out.computeIfAbsent(r.at("/metadata/benchmark_phase").asText(), k -> new TreeSet<>()).addAll(JsonShape.of(r));
    }
    return out;
  }

  private static TreeSet<String> metadata(TreeSet<String> shape) {
    return shape.stream().filter(p -> p.startsWith("/metadata/")).collect(Collectors.toCollection(TreeSet::new));
  }
}
