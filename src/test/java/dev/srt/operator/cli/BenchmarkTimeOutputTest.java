package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41, finding 3: {@code validate} and {@code plan} say how long a comparison's benchmarking is
 * expected to take, per run, per arm and in total, and the bound (execution.maxDuration); a ladder
 * that would outlive the bound is refused naming both.
 */
class BenchmarkTimeOutputTest {
  private static final String DIRECT = "examples/gpu-cluster-direct.yaml";

  @TempDir Path dir;

  /** examples/sgl-router-policies.yaml (two arms, three repetitions) with {@code load} and maxDuration {@code max}. */
  private Path comparison(String load, String max) throws IOException {
    String yaml = Files.readString(Path.of("examples/sgl-router-policies.yaml"))
        .replace("args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 512}",
            "args: {backend: sglang-oai-chat, dataset-name: random}\n    load: " + load)
        .replace("    repetitions: 3\n", "    repetitions: 3\n    maxDuration: " + max + "\n");
    assertThat(yaml).contains("load: " + load).contains("maxDuration: " + max);
    return Files.writeString(dir.resolve("c.yaml"), yaml);
  }

  @Test
  void validatePrintsTheEstimateUnderTheComparison() throws IOException {
    Path file = comparison("{mode: request-rate, levels: [1, 2, 4, 8, 16, 32], durationPerLevel: 60s}", "2h");
    ValidateCommandTest.Run r = ValidateCommandTest.run("validate", "-f", file.toString(), "--cluster", DIRECT);
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.outLines()).containsExactly("valid: RouterComparison sgl-router-policies (2 arms, on GpuCluster h100-box)",
        "  estimated benchmark time: 6 levels x 1m + 5 pauses x 5s = 6m25s per run; 19m15s per arm (3 runs), 38m30s in total (2 arms); "
            + "at most 2h per run (execution.maxDuration)",
        "valid: GpuCluster h100-box (direct)");
    ValidateCommandTest.Run json = ValidateCommandTest.run("validate", "-f", file.toString(), "--cluster", DIRECT, "-o", "json");
    assertThat(json.out()).contains("\"benchmarkTime\" : \"estimated benchmark time: 6 levels x 1m + 5 pauses x 5s = 6m25s per run;");
  }

  @Test
  void aClosedLoopLadderOfCountsIsUnknown() throws IOException {
    Path file = comparison("{mode: concurrency, levels: [8, 16], requestsPerLevel: 10000000}", "24h");
    ValidateCommandTest.Run r = ValidateCommandTest.run("validate", "-f", file.toString(), "--cluster", DIRECT);
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.outLines()).contains("  estimated benchmark time: unknown (closed-loop levels stop after 10000000 requests); "
        + "at most 24h per run (execution.maxDuration)");
  }

  @Test
  void aLadderLongerThanMaxDurationIsRefusedNamingBoth() throws IOException {
    Path file = comparison("{mode: request-rate, levels: [1, 2], durationPerLevel: 40m}", "1h");
    ValidateCommandTest.Run r = ValidateCommandTest.run("validate", "-f", file.toString(), "--cluster", DIRECT);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.outLines()).singleElement().asString().endsWith(": spec.workload.load: the benchmarking of one run is expected to "
        + "take 1h20m5s (its levels and the pauses between them), more than spec.execution.maxDuration (1h): measure fewer or "
        + "shorter levels, or raise spec.execution.maxDuration (at most 168h)");
  }

  @Test
  void planPrintsTheEstimateOnStderrAndTheDeadlinesInThePlan() throws IOException {
    Path file = comparison("{mode: request-rate, levels: [1, 2], durationPerLevel: 60s}", "2h");
    ValidateCommandTest.Run r = ValidateCommandTest.run("plan", "-f", file.toString(), "--cluster", DIRECT, "--arm", "cache-aware");
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.err()).contains("estimated benchmark time: 2 levels x 1m + 1 pause x 5s = 2m5s per run; 6m15s per arm (3 runs), "
        + "12m30s in total (2 arms); at most 2h per run (execution.maxDuration)");
    // The warm-up requests go with the first level: it has no known length.
    assertThat(r.out().replaceAll("\\s+", "")).contains("\"benchmarkDeadlines\":{\"maxSeconds\":7200,\"seconds\":[7200,720]}");
  }
}
