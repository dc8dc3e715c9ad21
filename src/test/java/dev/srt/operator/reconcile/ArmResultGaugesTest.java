package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmStatus;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArmResultGaugesTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ArmResultGauges gauges = new ArmResultGauges(registry);

  private static ArmStatus arm(String name, String... results) {
    ArmStatus a = new ArmStatus();
    a.name = name;
    a.results = new LinkedHashMap<>();
    for (int i = 0; i + 1 < results.length; i += 2) {
      a.results.put(results[i], results[i + 1]);
    }
    return a;
  }

  private Double value(String comparison, String arm, String metric) {
    var g = registry.find(ArmResultGauges.NAME).tags("comparison", comparison, "arm", arm, "metric", metric).gauge();
    return g == null ? null : g.value();
  }

  @Test
  void oneSeriesPerArmAndNumericMetricUntilTheComparisonGoes() {
    ResourceID qwen = new ResourceID("qwen", "bench");
    ResourceID other = new ResourceID("other", "bench");
    gauges.update(qwen, List.of(arm("sgl-router", "request_throughput", "156.5", "engine_cache_hit_rate", "0.511", "tag", "arm1"),
        arm("dynamo-kv")));
    gauges.update(other, List.of(arm("sgl-router", "request_throughput", "99")));

    assertThat(value("qwen", "sgl-router", "request_throughput")).isEqualTo(156.5);
    assertThat(value("qwen", "sgl-router", "engine_cache_hit_rate")).isEqualTo(0.511);
    assertThat(value("qwen", "sgl-router", "tag")).as("not a number").isNull();
    assertThat(value("other", "sgl-router", "request_throughput")).isEqualTo(99.0);
    assertThat(registry.find(ArmResultGauges.NAME).tag("namespace", "bench").gauges()).hasSize(3);

    // A rerun's new results replace the old ones; deletion removes the comparison's series.
    gauges.update(qwen, List.of(arm("sgl-router", "request_throughput", "160.0")));
    assertThat(value("qwen", "sgl-router", "request_throughput")).isEqualTo(160.0);
    assertThat(value("qwen", "sgl-router", "engine_cache_hit_rate")).isNull();
    gauges.remove(qwen);
    assertThat(value("qwen", "sgl-router", "request_throughput")).isNull();
    assertThat(value("other", "sgl-router", "request_throughput")).isEqualTo(99.0);
  }
}
