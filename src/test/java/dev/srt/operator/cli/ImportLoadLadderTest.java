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
  void anAiperfGoodputIsTheSloAndTheTraceReplayTypesSayHowToImportThem() throws IOException {
    ImportRun.Result r = importWith(CUSTOM.replace("--ui none",
        "--ui none --goodput \"time_to_first_token:2000 inter_token_latency:25\""), "");
    assertThat(r.code()).as(r.toString()).isZero();
    RouterComparison rc = written();
    assertThat(rc.getSpec().slo.ttftMs).isEqualTo(2000.0);
    assertThat(rc.getSpec().slo.itlMs).isEqualTo(25.0);
    assertThat(r.err()).contains("spec.slo from the command's --goodput");

    ImportRun.Result mooncake = importWith("benchmark: {type: mooncake-router}\n", "");
    assertThat(mooncake.code()).isEqualTo(1);
    assertThat(mooncake.err()).contains("benchmark.type: mooncake-router is not imported: write the trace replay as type: custom",
        "becomes spec.slo");
  }
}
