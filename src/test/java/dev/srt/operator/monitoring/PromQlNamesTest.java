package dev.srt.operator.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlNamesTest {
  @Test
  void findsTheMetricsAndNothingElse() {
    assertThat(PromQlNames.of("histogram_quantile(0.95, sum by (le, operation) (rate(srt_host_exec_seconds_bucket"
        + "{job=\"srt-operator\", operation=~\"poll|submit\"}[$__rate_interval])))")).containsExactly("srt_host_exec_seconds_bucket");
    assertThat(PromQlNames.of("absent(up{job=\"srt-operator\"} == 1)")).containsExactly("up");
    assertThat(PromQlNames.of("time() > srt_arm_start_deadline_timestamp_seconds")).containsExactly("srt_arm_start_deadline_timestamp_seconds");
    assertThat(PromQlNames.of("count(a_total{x=\"y) or z\"} == 0) or on (namespace) vector(0) + ignoring(le) b offset 5m"))
        .containsExactly("a_total", "b");
    assertThat(PromQlNames.of("label_values(srt_arm_request_throughput{namespace=~\"$namespace\"}, comparison)"))
        .containsExactly("srt_arm_request_throughput");
    assertThat(PromQlNames.of("sum without (instance) (rate(c[5m])) / max_over_time(d[1h:5m]) > bool 1e3")).containsExactly("c", "d");
  }
}
