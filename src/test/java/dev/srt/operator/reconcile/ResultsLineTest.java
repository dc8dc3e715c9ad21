package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultsLineTest {
  @Test
  void showsWhatTheRunReportedInAFixedOrder() {
    Map<String, String> r = new LinkedHashMap<>();
    r.put("worker_requests_max_over_min", "1.0712");
    r.put("engine_cache_hit_rate", "0.5113");
    r.put("p99_ttft_ms", "767.2");
    r.put("mean_ttft_ms", "387.49");
    r.put("request_throughput", "156.53");
    r.put("completed", "256");
    assertThat(ResultsLine.of(r))
        .isEqualTo("156.5 req/s, mean TTFT 387 ms, p99 TTFT 767 ms, engine cache hit 51.1%, requests max/min 1.07");
  }

  @Test
  void leavesOutWhatIsMissingOrNotANumber() {
    assertThat(ResultsLine.of(Map.of("request_throughput", "n/a", "mean_ttft_ms", "12.4"))).isEqualTo("mean TTFT 12 ms");
    assertThat(ResultsLine.of(Map.of("request_throughput", "NaN", "p99_ttft_ms", "Infinity"))).isNull();
    assertThat(ResultsLine.of(Map.of("completed", "3"))).isNull();
    assertThat(ResultsLine.of(Map.of())).isNull();
    assertThat(ResultsLine.of(null)).isNull();
  }
}
