package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.Mode;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.results.ResultFile;
import dev.srt.operator.results.ResultMetric;
import dev.srt.operator.results.ResultsParser;
import dev.srt.operator.results.RunResults;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real AIPerf 0.13.0 runs the command lines the renderer emits for an AIPerf workload (a load
 * ladder with warm-up, and a Mooncake trace on its schedule) to the end against an emulated engine
 * whose model directory holds the generated tokenizer, and the results layer reads what it wrote.
 */
class RealAiPerfIT {
  @TempDir Path dir;
  private SglangWorker worker;

  @AfterEach
  void stop() {
    if (worker != null) {
      worker.close();
    }
  }

  private Path model() throws Exception {
    Path model = dir.resolve("models/Qwen3-32B-FP8");
    EmulatedModelFiles.write(model);
    return model;
  }

  private SglangWorker engine(Path model) throws Exception {
    worker = new SglangWorker(SglangWorker.Options.parse(List.of("--model-path", model.toString(), "--served-model-name",
        EmulatedFleet.MODEL, "--port", "0", "--page-size", "64", "--enable-metrics"), Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"),
        new PrintStream(new ByteArrayOutputStream())));
    worker.start();
    await().atMost(Duration.ofSeconds(10)).until(worker::isReady);
    return worker;
  }

  /** The capacity example's arm with {@code workload} and {@code execution}, its model in {@code model}. */
  static List<ProcessSpec> benchmarks(Path model, String workload, String execution) throws Exception {
    String yaml = Files.readString(Examples.CAPACITY).replace("/models/Qwen3-32B-FP8", model.toString());
    int start = yaml.indexOf("  workload:\n");
    int end = yaml.indexOf("  arms:\n", start);
    RouterComparison rc = Examples.parse(yaml.substring(0, start) + workload + execution + yaml.substring(end)).comparisons().get(0);
    return Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "cache-aware", Mode.DIRECT).processes(Role.BENCHMARK);
  }

  /** The rendered command, aimed at the engine instead of the router (the only change), run by the real aiperf. */
  private int run(ProcessSpec benchmark) throws Exception {
    List<String> argv = new ArrayList<>(benchmark.argv());
    argv.set(argv.indexOf("--url") + 1, EmulatedFleet.url(worker));
    return RealAiPerf.run(argv, benchmark.env(), dir, benchmark.name() + ".log");
  }

  private RunResults results(String resultsDir) throws Exception {
    Path aiperf = dir.resolve(resultsDir).resolve("aiperf");
    Map<ResultFile, byte[]> files = new EnumMap<>(ResultFile.class);
    files.put(ResultFile.AIPERF, Files.readAllBytes(aiperf.resolve("profile_export_aiperf.json")));
    files.put(ResultFile.AIPERF_RECORDS, Files.readAllBytes(aiperf.resolve("profile_export.jsonl")));
    return ResultsParser.parse(files, null, resultsDir);
  }

  private List<JsonNode> records(String resultsDir) throws Exception {
    return Files.readAllLines(dir.resolve(resultsDir).resolve("aiperf/profile_export.jsonl")).stream().filter(l -> !l.isBlank())
        .map(Json::parse).toList();
  }

  private double engineMetric(String name) {
    return HttpTestClient.get(EmulatedFleet.url(worker) + "/metrics").body().lines().filter(l -> l.startsWith(name + "{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  @Test
  void aLadderWithWarmUpRunsToTheEndAndCountsTheTokensTheEngineCounts() throws Exception {
    RealProgramsEnv.require();
    engine(model());
    List<ProcessSpec> levels = benchmarks(model(), """
          workload:
            tool: aiperf
            args: {synthetic-input-tokens-mean: 64, output-tokens-mean: 8, extra-inputs: "ignore_eos:true"}
            load: {mode: concurrency, levels: [2, 4], requestsPerLevel: 6}
        """, """
          execution: {warmupRequests: 2}
        """);
    assertThat(levels).hasSize(2);
    assertThat(levels.get(0).argv()).containsSequence("--tokenizer", model().toString()).containsSequence("--warmup-request-count", "2");

    for (ProcessSpec level : levels) {
      assertThat(run(level)).as(Files.readString(dir.resolve(level.name() + ".log"))).isZero();
    }

    for (String resultsDir : List.of("results/level-1", "results/level-2")) {
      RunResults r = results(resultsDir);
      assertThat(r.problem()).isNull();
      assertThat(r.metrics()).containsEntry(ResultMetric.COMPLETED, "6").containsKey(ResultMetric.MEAN_TTFT_MS)
          .containsKey(ResultMetric.P99_ITL_MS).containsKey(ResultMetric.REQUEST_THROUGHPUT);
    }
    // the warm-up is recorded, in its own phase, before the first level only
    assertThat(records("results/level-1")).extracting(r -> r.at("/metadata/benchmark_phase").asText())
        .containsExactly("warmup", "warmup", "profiling", "profiling", "profiling", "profiling", "profiling", "profiling");
    assertThat(engineMetric("sglang:num_requests_total")).isEqualTo(2 + 6 + 6);
    // The engine prefilled what AIPerf counted, plus the template's two role markers, and decoded the 8 tokens asked for.
    for (JsonNode r : records("results/level-2")) {
      JsonNode m = r.path("metrics");
      assertThat(m.at("/usage_prompt_tokens/value").asInt()).isEqualTo(m.at("/input_sequence_length/value").asInt() + 2);
      assertThat(m.at("/output_sequence_length/value").asInt()).isEqualTo(8);
      assertThat(m.at("/usage_completion_tokens/value").asInt()).isEqualTo(8);
    }
  }

  @Test
  void aMooncakeTraceReplaysWithItsSharedBlocks() throws Exception {
    RealProgramsEnv.require();
    engine(model());
    Path trace = dir.resolve("trace.jsonl");
    Files.writeString(trace, """
        {"timestamp": 0, "input_length": 1000, "output_length": 4, "hash_ids": [1, 2]}
        {"timestamp": 200, "input_length": 1000, "output_length": 4, "hash_ids": [1, 3]}
        {"timestamp": 400, "input_length": 600, "output_length": 4, "hash_ids": [4, 5]}
        """);
    // the multi-node example's workload, with this trace
    List<ProcessSpec> benchmark = benchmarks(model(), """
          workload:
            tool: aiperf
            args:
              input-file: %s
              custom-dataset-type: mooncake_trace
              fixed-schedule: true
              fixed-schedule-auto-offset: true
              extra-inputs: "ignore_eos:true"
              request-timeout-seconds: 900
              ui: none
        """.formatted(trace), "");

    assertThat(run(benchmark.get(0))).as(Files.readString(dir.resolve("benchmark.log"))).isZero();

    RunResults r = results("results");
    assertThat(r.problem()).isNull();
    assertThat(r.metrics()).containsEntry(ResultMetric.COMPLETED, "3");
    assertThat(engineMetric("sglang:num_requests_total")).isEqualTo(3);
    // the second request's first 512-token block is the first's: the engine found (most of) it cached
    assertThat(engineMetric("sglang:cached_tokens_total")).isGreaterThanOrEqualTo(384);
  }
}
