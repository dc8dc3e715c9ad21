package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * srtctl's ways of sweeping load, imported as one load ladder: sa-bench's concurrencies, a
 * {@code sweep:} over them, and an aiperf {@code --goodput} as the SLO; every other sweep is refused
 * naming its field.
 */
class ImportLoadLadderTest {
  @TempDir Path tmp;

  private static final String CUSTOM = """
      benchmark:
        type: custom
        command: aiperf profile --url "$SRT_FRONTEND_URL" --output-artifact-dir "$AIPERF_ARTIFACT_DIR" --ui none
        env: {AIPERF_LOG: info}
      """;

  private ImportRun.Result importWith(String benchmark, String extra) throws IOException {
    String recipe = ImportRun.RECIPE.replace(CUSTOM, benchmark) + extra;
    Path file = ImportRun.write(tmp, "arm.yaml", recipe);
    return ImportRun.run(Map.of(), file.toString(), "--out-file", tmp.resolve("out.yaml").toString(), "--name", "ladder");
  }

  private RouterComparison written() {
    LoadedResources loaded = LoadedResources.load(List.of(tmp.resolve("out.yaml")));
    assertThat(loaded.problems()).filteredOn(Problem::isError).isEmpty();
    return loaded.comparisons().get(0);
  }

  @Test
  void saBenchConcurrenciesBecomeALadderSentTenTimesTheLargestPerLevel() throws IOException {
    ImportRun.Result r = importWith("""
        benchmark: {type: sa-bench, isl: 1024, osl: 256, concurrencies: 16x4x8, req_rate: inf}
        """, "");

    assertThat(r.code()).as(r.toString()).isZero();
    RouterComparison rc = written();
    assertThat(rc.getSpec().workload.tool).isEqualTo("bench-serving");
    assertThat(rc.getSpec().workload.load.mode).isEqualTo("concurrency");
    assertThat(rc.getSpec().workload.load.levels).containsExactly(4.0, 8.0, 16.0);
    assertThat(rc.getSpec().workload.load.requestsPerLevel).isEqualTo(160);
    assertThat(rc.getSpec().workload.args).containsEntry("random-input-len", 1024L).containsEntry("random-output-len", 256L)
        .containsEntry("dataset-name", "random");
    assertThat(r.err()).contains("workload.load.levels: [4, 8, 16] (the concurrencies ascending", "requestsPerLevel: 160");
  }

  @Test
  void aSweepOverTheConcurrencyIsOneLadderNotOneJobPerValue() throws IOException {
    ImportRun.Result r = importWith("""
        benchmark:
          type: sa-bench
          isl: 1024
          osl: 1024
          concurrencies: [{concurrency}]
        """, "sweep:\n  concurrency: [8, 32, 64]\n");

    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(written().getSpec().workload.load.levels).containsExactly(8.0, 32.0, 64.0);
  }

  @Test
  void aSweepOverAnythingElseIsRefusedNamingIt() throws IOException {
    ImportRun.Result r = importWith("""
        benchmark: {type: sa-bench, isl: 1024, osl: 1024, concurrencies: [4, 8]}
        """, "sweep:\n  mem: [0.8, 0.9]\n");

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("sweep.mem: srtctl's sweep over {mem} is not imported");
    assertThat(tmp.resolve("out.yaml")).doesNotExist();
  }

  @Test
  void anOpenLoopRateOrAnUnreadableLadderIsRefusedAtItsField() throws IOException {
    ImportRun.Result rate = importWith("""
        benchmark: {type: sa-bench, isl: 1024, osl: 1024, concurrencies: [4, 8], req_rate: "20"}
        """, "");
    assertThat(rate.code()).isEqualTo(1);
    assertThat(rate.err()).contains("benchmark.req_rate: 20 is not imported");

    ImportRun.Result bad = importWith("""
        benchmark: {type: sa-bench, isl: 1024, osl: 1024, concurrencies: 4xmany}
        """, "");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).contains("benchmark.concurrencies: must list whole numbers of requests in flight");
  }

  @Test
  void anAiperfGoodputIsTheSloAndTheRouterBenchmarkIsRefusedSayingWhy() throws IOException {
    ImportRun.Result r = importWith(CUSTOM.replace("--ui none",
        "--ui none --goodput \"time_to_first_token:2000 inter_token_latency:25\""), "");
    assertThat(r.code()).as(r.toString()).isZero();
    RouterComparison rc = written();
    assertThat(rc.getSpec().slo.ttftMs).isEqualTo(2000.0);
    assertThat(rc.getSpec().slo.itlMs).isEqualTo(25.0);
    assertThat(r.err()).contains("spec.slo from the command's --goodput");

    ImportRun.Result router = importWith("benchmark: {type: router}\n", "");
    assertThat(router.code()).isEqualTo(1);
    assertThat(router.err()).contains("benchmark.type: router is not imported: it runs Dynamo's prefix-ratio benchmark");
  }

  private ImportRun.Result importMooncake(String benchmark, String... more) throws IOException {
    Path file = ImportRun.write(tmp, "arm.yaml", ImportRun.RECIPE.replace(CUSTOM, benchmark));
    List<String> args = new java.util.ArrayList<>(List.of(file.toString(), "--out-file", tmp.resolve("out.yaml").toString(),
        "--name", "mooncake"));
    args.addAll(List.of(more));
    return ImportRun.run(Map.of(), args.toArray(String[]::new));
  }

  /** mooncake-router: aiperf replays the trace at its timestamps, its goodput thresholds are the SLO. */
  @Test
  void mooncakeRouterIsTheAiperfReplayOfItsTraceWithItsThresholdsAsTheSlo() throws IOException {
    ImportRun.Result r = importMooncake("""
        benchmark:
          type: mooncake-router
          mooncake_workload: toolagent
          ttft_threshold_ms: 1500
          itl_threshold_ms: 30
        """, "--trace-dir", "/data/traces/");

    assertThat(r.code()).as(r.toString()).isZero();
    RouterComparison rc = written();
    assertThat(rc.getSpec().workload.tool).isEqualTo("aiperf");
    assertThat(rc.getSpec().workload.args).containsEntry("input-file", "/data/traces/toolagent_trace.jsonl")
        .containsEntry("custom-dataset-type", "mooncake_trace").containsEntry("fixed-schedule", true)
        .containsEntry("warmup-request-count", 20L);
    assertThat(rc.getSpec().slo.ttftMs).isEqualTo(1500.0);
    assertThat(rc.getSpec().slo.itlMs).isEqualTo(30.0);
    assertThat(r.err()).contains("download https://raw.githubusercontent.com/kvcache-ai/Mooncake/main/FAST25-release/traces/"
        + "toolagent_trace.jsonl there");

    // srtctl's defaults: the conversation trace, 2,000 ms and 25 ms
    ImportRun.Result defaults = importMooncake("benchmark: {type: mooncake-router}\n", "--trace-dir", "/data/traces");
    assertThat(defaults.code()).as(defaults.toString()).isZero();
    RouterComparison d = written();
    assertThat(d.getSpec().workload.args).containsEntry("input-file", "/data/traces/conversation_trace.jsonl");
    assertThat(d.getSpec().slo.ttftMs).isEqualTo(2000.0);
    assertThat(d.getSpec().slo.itlMs).isEqualTo(25.0);
  }

  @Test
  void mooncakeRouterWithoutATraceDirectoryOrWithBadValuesIsRefusedNamingTheField() throws IOException {
    ImportRun.Result noDir = importMooncake("benchmark: {type: mooncake-router}\n");
    assertThat(noDir.code()).isEqualTo(1);
    assertThat(noDir.err()).contains("benchmark.type: mooncake-router replays the conversation trace, which srtctl downloads",
        "give it with --trace-dir DIR (the trace is read as DIR/conversation_trace.jsonl)");
    assertThat(tmp.resolve("out.yaml")).doesNotExist();

    ImportRun.Result bad = importMooncake("benchmark: {type: mooncake-router, mooncake_workload: chat, itl_threshold_ms: -5}\n",
        "--trace-dir", "/data/traces");
    assertThat(bad.code()).isEqualTo(1);
    assertThat(bad.err()).contains("benchmark.mooncake_workload: chat is not one of srtctl's traces: mooncake, conversation, "
        + "synthetic, toolagent", "benchmark.itl_threshold_ms: -5 must be a positive number of milliseconds");

    ImportRun.Result relative = importMooncake("benchmark: {type: mooncake-router}\n", "--trace-dir", "traces");
    assertThat(relative.code()).isEqualTo(1);
    assertThat(relative.err()).contains("--trace-dir: traces must be an absolute path on the GPU host");
  }
}
