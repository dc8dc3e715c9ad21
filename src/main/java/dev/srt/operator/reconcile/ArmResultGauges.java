package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.MetricSummary;
import dev.srt.operator.verdict.Metric;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every arm's headline results (throughput, TTFT, the engines' cache hit rate, ... read from the
 * run's result files; the mean over the arm's succeeded runs once it has a summary) as the gauge {@code srt_arm_result{namespace, comparison, arm, metric}}, so
 * a Prometheus that scrapes the operator can chart router comparisons over time. The
 * {@code metric} label is always one of {@link Metric}'s names and each value a finite
 * number: anything else in a status is left out, so the series stay bounded whatever a run
 * writes. A deleted comparison's series go away.
 */
public final class ArmResultGauges {
  public static final String NAME = "srt_arm_result";

  private record Row(String namespace, String comparison, String arm, Metric metric, double value) {}

  private final MultiGauge gauge;
  private final Map<ResourceID, List<Row>> rows = new ConcurrentHashMap<>();

  public ArmResultGauges(MeterRegistry registry) {
    this.gauge = MultiGauge.builder(NAME).description("Headline results of each arm's latest run (from its result files)").register(registry);
  }

  /** Publishes the results of a comparison's arms, replacing what it had before. */
  public void update(ResourceID id, List<ArmStatus> arms) {
    List<Row> next = new ArrayList<>();
    for (ArmStatus a : arms) {
      for (Metric metric : Metric.values()) {
        MetricSummary summary = a.summary == null ? null : a.summary.metrics.get(metric.key());
        Double value = summary != null ? summary.mean : metric.of(a.results);
        if (value != null && Double.isFinite(value)) {
          next.add(new Row(id.getNamespace().orElse(""), id.getName(), a.name, metric, value));
        }
      }
    }
    List<Row> before = rows.put(id, List.copyOf(next));
    if (!next.equals(before)) {
      publish();
    }
  }

  /** Removes a (deleted) comparison's series. */
  public void remove(ResourceID id) {
    if (rows.remove(id) != null) {
      publish();
    }
  }

  private synchronized void publish() {
    List<MultiGauge.Row<?>> all = new ArrayList<>();
    rows.values().forEach(list -> list.forEach(r -> all.add(MultiGauge.Row.of(
        Tags.of("namespace", r.namespace(), "comparison", r.comparison(), "arm", r.arm(), "metric", r.metric().key()), r.value()))));
    gauge.register(all, true);
  }
}
