package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.MetricSummary;
import dev.srt.operator.verdict.Metric;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every arm's headline results (throughput, TTFT, the engines' cache hit rate, ... read from the
 * run's result files; the mean over the arm's succeeded runs once it has a summary) as gauges of
 * their own ({@link ResultSeries}: {@code srt_arm_ttft_seconds{namespace, comparison, arm, stat}},
 * {@code srt_arm_request_throughput{namespace, comparison, arm}}, ...), so a Prometheus that
 * scrapes the operator can chart router comparisons over time. Only {@link Metric}'s numbers are
 * published, each a finite number: anything else in a status is left out, so the series stay
 * bounded whatever a run writes. A deleted comparison's series go away.
 */
public final class ArmResultGauges {
  private record Row(String namespace, String comparison, String arm, ResultSeries.Series series, double value) {}

  private final MeterRegistry registry;
  private final Map<String, MultiGauge> gauges = new ConcurrentHashMap<>();
  private final Map<ResourceID, List<Row>> rows = new ConcurrentHashMap<>();

  public ArmResultGauges(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Publishes the results of a comparison's arms, replacing what it had before. */
  public void update(ResourceID id, List<ArmStatus> arms) {
    List<Row> next = new ArrayList<>();
    for (ArmStatus a : arms) {
      for (Metric metric : Metric.values()) {
        MetricSummary summary = a.summary == null ? null : a.summary.metrics.get(metric.key());
        Double value = summary != null ? summary.mean : metric.of(a.results);
        var series = ResultSeries.of(metric);
        if (value != null && Double.isFinite(value) && series.isPresent()) {
          next.add(new Row(id.getNamespace().orElse(""), id.getName(), a.name, series.get(), series.get().value(value)));
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
    Map<String, List<MultiGauge.Row<?>>> byName = new HashMap<>();
    gauges.keySet().forEach(name -> byName.put(name, new ArrayList<>()));
    rows.values().forEach(list -> list.forEach(r -> {
      gauges.computeIfAbsent(r.series().name(), n -> MultiGauge.builder(n).description(r.series().help()).register(registry));
      byName.computeIfAbsent(r.series().name(), n -> new ArrayList<>()).add(MultiGauge.Row.of(
          Tags.of("namespace", r.namespace(), "comparison", r.comparison(), "arm", r.arm()).and(r.series().tags()), r.value()));
    }));
    byName.forEach((name, list) -> gauges.get(name).register(list, true));
  }
}
