package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every arm's headline results (the run's summary: throughput, TTFT, the engines' cache hit rate,
 * ...) as the gauge {@code srt_arm_result{namespace, comparison, arm, metric}}, so a Prometheus
 * that scrapes the operator can chart router comparisons over time. Non-numeric values are left
 * out; a deleted comparison's series go away.
 */
final class ArmResultGauges {
  static final String NAME = "srt_arm_result";

  private record Row(String namespace, String comparison, String arm, String metric, double value) {}

  private final MultiGauge gauge;
  private final Map<ResourceID, List<Row>> rows = new ConcurrentHashMap<>();

  ArmResultGauges(MeterRegistry registry) {
    this.gauge = MultiGauge.builder(NAME).description("Headline results of each arm's latest run (the run's summary)").register(registry);
  }

  void update(ResourceID id, List<ArmStatus> arms) {
    List<Row> next = new ArrayList<>();
    for (ArmStatus a : arms) {
      if (a.results == null) {
        continue;
      }
      a.results.forEach((metric, value) -> {
        try {
          next.add(new Row(id.getNamespace().orElse(""), id.getName(), a.name, metric, Double.parseDouble(value)));
        } catch (NumberFormatException e) {
          // a tool's non-numeric value has no gauge
        }
      });
    }
    List<Row> before = rows.put(id, List.copyOf(next));
    if (!next.equals(before)) {
      publish();
    }
  }

  void remove(ResourceID id) {
    if (rows.remove(id) != null) {
      publish();
    }
  }

  private synchronized void publish() {
    List<MultiGauge.Row<?>> all = new ArrayList<>();
    rows.values().forEach(list -> list.forEach(r -> all.add(MultiGauge.Row.of(
        Tags.of("namespace", r.namespace(), "comparison", r.comparison(), "arm", r.arm(), "metric", r.metric()), r.value()))));
    gauge.register(all, true);
  }
}
