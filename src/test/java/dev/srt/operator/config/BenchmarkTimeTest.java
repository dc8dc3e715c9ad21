package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.RouterComparison;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 41, finding 3, "runs without an end are valid": how long a comparison's benchmarking is
 * expected to take ({@link BenchmarkTime}), and the validation of spec.execution.maxDuration and of
 * ladders that would outlive it, with their field paths.
 */
class BenchmarkTimeTest {
  static String comparison(String load, String execution) {
    return """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: ladder}
        spec:
          clusterRef: {name: h100-box}
          model: {path: /models/m}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
          workload:
            tool: aiperf
        %s
        %s
          arms:
          - name: a
            frontend: {type: sgl-router, source: /src/sgl-router}
          - name: b
            frontend: {type: sgl-router, source: /src/sgl-router, args: {policy: round_robin}}
        """.formatted(load == null ? "" : "    load: " + load, execution == null ? "" : "  execution: " + execution);
  }

  static RouterComparison parse(String yaml) {
    return LoadedResources.parse("c.yaml", yaml).comparisons().get(0);
  }

  static List<String> errors(String yaml) {
    return LoadedResources.parse("c.yaml", yaml).problems().stream().filter(Problem::isError).map(Problem::describe).toList();
  }

  @Test
  void aLadderOfDurationsIsItsLevelsAndPauses() {
    BenchmarkTime t = BenchmarkTime.of(parse(comparison("{mode: concurrency, levels: [1, 2, 4, 8, 16, 32], durationPerLevel: 60s}",
        "{repetitions: 3}")).getSpec());
    assertThat(t.perRunSeconds()).hasValue(6 * 60 + 5 * 5);
    assertThat(t.describe(2, 3)).isEqualTo("estimated benchmark time: 6 levels x 1m + 5 pauses x 5s = 6m25s per run; 19m15s per arm "
        + "(3 runs), 38m30s in total (2 arms); at most 24h per run (execution.maxDuration)");
  }

  @Test
  void anOpenLoopLevelTakesItsRequestsOverItsRate() {
    BenchmarkTime t = BenchmarkTime.of(parse(comparison(
        "{mode: request-rate, levels: [1, 4, 10], requestsPerLevel: 100, drainBetweenLevels: 0s}", "{maxDuration: 2h}")).getSpec());
    assertThat(t.levelSeconds()).containsExactly(100.0, 25.0, 10.0);
    assertThat(t.describe(2, 1)).isEqualTo("estimated benchmark time: 3 levels of 1m40s to 10s = 2m15s per run; 2m15s per arm (1 run), "
        + "4m30s in total (2 arms); at most 2h per run (execution.maxDuration)");
  }

  @Test
  void aClosedLoopLevelOfACountOrABenchmarkWithoutALadderIsUnknown() {
    BenchmarkTime closed = BenchmarkTime.of(parse(comparison("{mode: concurrency, levels: [8, 16], requestsPerLevel: 10000000}", null))
        .getSpec());
    assertThat(closed.perRunSeconds()).isEmpty();
    assertThat(closed.describe(2, 1)).isEqualTo("estimated benchmark time: unknown (closed-loop levels stop after 10000000 requests); "
        + "at most 24h per run (execution.maxDuration)");
    assertThat(BenchmarkTime.of(parse(comparison(null, null)).getSpec()).describe(2, 1))
        .isEqualTo("estimated benchmark time: unknown (without spec.workload.load the benchmark stops after its own request count); "
            + "at most 24h per run (execution.maxDuration)");
  }

  @Test
  void aLadderLongerThanMaxDurationIsRefusedNamingBoth() {
    // 16 levels of 2h: 32h and 15 pauses, beyond the default day.
    String levels = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]";
    assertThat(errors(comparison("{mode: concurrency, levels: " + levels + ", durationPerLevel: 2h}", null))).containsExactly(
        "spec.workload.load: the benchmarking of one run is expected to take 32h1m15s (its levels and the pauses between them), "
            + "more than spec.execution.maxDuration (24h, the default): measure fewer or shorter levels, or raise "
            + "spec.execution.maxDuration (at most 168h)");
    assertThat(errors(comparison("{mode: concurrency, levels: [1, 2], durationPerLevel: 31m}", "{maxDuration: 1h}"))).containsExactly(
        "spec.workload.load: the benchmarking of one run is expected to take 1h2m5s (its levels and the pauses between them), "
            + "more than spec.execution.maxDuration (1h): measure fewer or shorter levels, or raise spec.execution.maxDuration "
            + "(at most 168h)");
    assertThat(errors(comparison("{mode: concurrency, levels: " + levels + ", durationPerLevel: 2h}", "{maxDuration: 40h}"))).isEmpty();
  }

  @Test
  void maxDurationIsADurationOfAMinuteToAWeek() {
    assertThat(errors(comparison(null, "{maxDuration: 30s}")))
        .containsExactly("spec.execution.maxDuration: must be at least 1m (it bounds the benchmarking of a run), not 30s");
    assertThat(errors(comparison(null, "{maxDuration: 169h}")))
        .containsExactly("spec.execution.maxDuration: must be at most 168h (7 days), not 169h");
    assertThat(errors(comparison(null, "{maxDuration: a day}")))
        .containsExactly("spec.execution.maxDuration: must be a duration such as 30m, 10s or 1h30m, not a day");
    assertThat(errors(comparison(null, "{maxDuration: 168h}"))).isEmpty();
  }

  @Test
  void anInvalidSpecsEstimateDoesNotOverflow() {
    // validate -o json describes comparisons with errors too: 10M requests at 1e-9 req/s.
    BenchmarkTime t = BenchmarkTime.of(parse(comparison("{mode: request-rate, levels: [1.0e-9], requestsPerLevel: 10000000}", null))
        .getSpec());
    assertThat(t.describe(8, 50)).contains("per arm (50 runs), ").doesNotContain("-");
  }

  @Test
  void wholeSecondsReadAsADurationFieldIsWritten() {
    assertThat(BenchmarkTime.text(0)).isEqualTo("0s");
    assertThat(BenchmarkTime.text(3600)).isEqualTo("1h");
    assertThat(BenchmarkTime.text(3725)).isEqualTo("1h2m5s");
    assertThat(BenchmarkTime.text(60)).isEqualTo("1m");
  }
}
