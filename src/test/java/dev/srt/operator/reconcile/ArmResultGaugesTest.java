package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.verdict.Metric;
import dev.srt.operator.verdict.Summaries;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArmResultGaugesTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ArmResultGauges gauges = new ArmResultGauges(registry);

  private static ArmStatus arm(String name, String... results) {
    ArmStatus a = new ArmStatus();
    a.name = name;
    a.results = new BenchmarkResults();
    for (int i = 0; i + 1 < results.length; i += 2) {
      Metric.of(results[i]).orElseThrow().set(a.results, Double.parseDouble(results[i + 1]));
    }
    return a;
  }

  private static ArmRun run(double requestThroughput) {
    ArmRun r = new ArmRun();
    r.phase = "Succeeded";
    r.results = new BenchmarkResults();
    r.results.requestThroughput = requestThroughput;
    return r;
  }

  private Double value(String comparison, String arm, String metric) {
    var series = ResultSeries.of(Metric.of(metric).orElseThrow()).orElseThrow();
    var g = registry.find(series.name()).tags("comparison", comparison, "arm", arm).tags(series.tags()).gauge();
    return g == null ? null : g.value();
  }

  @Test
  void oneSeriesPerArmAndNumericMetricUntilTheComparisonGoes() {
    ResourceID qwen = new ResourceID("qwen", "bench");
    ResourceID other = new ResourceID("other", "bench");
    gauges.update(qwen, List.of(arm("sgl-router", "request_throughput", "156.5", "engine_cache_hit_rate", "0.511", "mean_ttft_ms", "NaN"),
        arm("dynamo-kv")));
    gauges.update(other, List.of(arm("sgl-router", "request_throughput", "99")));

    assertThat(value("qwen", "sgl-router", "request_throughput")).isEqualTo(156.5);
    assertThat(value("qwen", "sgl-router", "engine_cache_hit_rate")).isEqualTo(0.511);
    assertThat(registry.find("srt_arm_engine_cache_hit_ratio").tags("namespace", "bench", "comparison", "qwen", "arm", "sgl-router")
        .gauge().value()).isEqualTo(0.511);
    assertThat(value("qwen", "sgl-router", "mean_ttft_ms")).as("not a finite number").isNull();
    assertThat(value("other", "sgl-router", "request_throughput")).isEqualTo(99.0);
    assertThat(registry.getMeters()).filteredOn(m -> m.getId().getName().startsWith("srt_arm_"))
        .filteredOn(m -> "bench".equals(m.getId().getTag("namespace"))).hasSize(3);

    // A rerun's new results replace the old ones; deletion removes the comparison's series.
    gauges.update(qwen, List.of(arm("sgl-router", "request_throughput", "160.0")));
    assertThat(value("qwen", "sgl-router", "request_throughput")).isEqualTo(160.0);
    assertThat(value("qwen", "sgl-router", "engine_cache_hit_rate")).isNull();

    // Once an arm has runs, its gauge is their mean.
    ArmStatus summed = arm("sgl-router", "request_throughput", "170.0");
    summed.runs = List.of(run(150.0), run(160.0));
    summed.summary = Summaries.of(summed.runs);
    gauges.update(qwen, List.of(summed));
    assertThat(value("qwen", "sgl-router", "request_throughput")).isEqualTo(155.0);
    gauges.remove(qwen);
    assertThat(value("qwen", "sgl-router", "request_throughput")).isNull();
    assertThat(value("other", "sgl-router", "request_throughput")).isEqualTo(99.0);
  }
}
