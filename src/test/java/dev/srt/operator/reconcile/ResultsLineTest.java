package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.BenchmarkResults;
import org.junit.jupiter.api.Test;

class ResultsLineTest {
  @Test
  void showsWhatTheRunReportedInAFixedOrder() {
    BenchmarkResults r = new BenchmarkResults();
    r.workerRequestsMaxOverMin = 1.0712;
    r.engineCacheHitRate = 0.5113;
    r.p99TtftMs = 767.2;
    r.meanTtftMs = 387.49;
    r.requestThroughput = 156.53;
    r.completed = 256L;
    r.failed = 0L;
    assertThat(ResultsLine.of(r))
        .isEqualTo("156.5 req/s, mean TTFT 387 ms, p99 TTFT 767 ms, engine cache hit 51.1%, requests max/min 1.07");
  }

  @Test
  void failedRequestsAreCounted() {
    BenchmarkResults r = new BenchmarkResults();
    r.requestThroughput = 100.0;
    r.failed = 12L;
    assertThat(ResultsLine.of(r)).isEqualTo("100.0 req/s, 12 failed requests");
  }

  @Test
  void leavesOutWhatIsMissingOrNotFinite() {
    BenchmarkResults r = new BenchmarkResults();
    r.requestThroughput = Double.NaN;
    r.meanTtftMs = 12.4;
    assertThat(ResultsLine.of(r)).isEqualTo("mean TTFT 12 ms");
    BenchmarkResults onlyCount = new BenchmarkResults();
    onlyCount.completed = 3L;
    assertThat(ResultsLine.of(onlyCount)).isNull();
    assertThat(ResultsLine.of(new BenchmarkResults())).isNull();
    assertThat(ResultsLine.of(null)).isNull();
  }
}
