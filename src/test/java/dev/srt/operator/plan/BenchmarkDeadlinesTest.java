package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.RouterComparison;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * Issue 41, finding 3: every benchmark of a run has a deadline, planned from what the spec says of
 * its length: 2 × the expected length + 10 minutes, at most spec.execution.maxDuration, which is
 * also the deadline of a benchmark whose length is unknown.
 */
class BenchmarkDeadlinesTest {
  /** A comparison of two sgl-router arms measured by AIPerf with {@code load} and {@code execution}. */
  private static RunPlan plan(String load, String execution) {
    RouterComparison rc = Examples.parse("""
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: ladder}
        spec:
          clusterRef: {name: h100-box}
          model: {path: /models/m}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
          workload:
            tool: aiperf
            load: %s
          execution: %s
          arms:
          - name: cache-aware
            frontend: {type: sgl-router, source: /src/sgl-router}
        """.formatted(load, execution)).comparisons().get(0);
    return Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "cache-aware", Mode.DIRECT);
  }

  @Test
  void aLevelOfKnownLengthGetsTwiceItPlusTenMinutes() throws Exception {
    RunPlan plan = plan("{mode: concurrency, levels: [8, 16], durationPerLevel: 90s}", "{repetitions: 1}");
    assertThat(plan.benchmarkDeadlines()).isEqualTo(new BenchmarkDeadlines(86400, java.util.List.of(780L, 780L)));
  }

  @Test
  void anOpenLoopLevelsLengthIsItsRequestsOverItsRate() throws Exception {
    // 100 requests at 3 req/s: 33.3 s, so 67 s + 600.
    RunPlan plan = plan("{mode: request-rate, levels: [3, 10], requestsPerLevel: 100}", "{maxDuration: 2h}");
    assertThat(plan.benchmarkDeadlines().seconds()).containsExactly(667L, 620L);
    assertThat(plan.benchmarkDeadlines().maxSeconds()).isEqualTo(7200);
  }

  @Test
  void noDeadlineIsLaterThanMaxDuration() throws Exception {
    // 50 minutes a level: 2 x 50m + 10m = 110m, cut to the 100m of maxDuration.
    RunPlan plan = plan("{mode: concurrency, levels: [8], durationPerLevel: 50m}", "{maxDuration: 100m}");
    assertThat(plan.benchmarkDeadlines().seconds()).containsExactly(6000L);
  }

  @Test
  void aClosedLoopLevelOfACountAndTheWarmUpGetMaxDuration() throws Exception {
    assertThat(plan("{mode: concurrency, levels: [8, 16], requestsPerLevel: 256}", "{maxDuration: 3h}").benchmarkDeadlines().seconds())
        .containsExactly(10800L, 10800L);
    // The first level also sends the warm-up requests, which the spec gives no length.
    assertThat(plan("{mode: concurrency, levels: [8, 16], durationPerLevel: 1m}", "{warmupRequests: 32}").benchmarkDeadlines().seconds())
        .containsExactly(86400L, 720L);
  }

  @Test
  void aRunWithoutALadderHasOneBenchmarkBoundByMaxDuration() throws Exception {
    RouterComparison rc = Examples.parse(Files.readString(Examples.COMPARISON)).comparisons().get(0);
    RunPlan plan = Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "sgl-router", Mode.DIRECT);
    assertThat(plan.benchmarkDeadlines()).isEqualTo(new BenchmarkDeadlines(86400, java.util.List.of(86400L)));
  }
}
