package dev.srt.operator.reconcile;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code srt_comparisons{phase}}: how many RouterComparisons are in each phase. Every phase has its
 * series from the start (0 until a comparison gets there), so a dashboard's stack and an alert on
 * a phase see zeros rather than nothing; a phase outside the list still gets one when it appears.
 */
final class ComparisonPhaseGauges {
  /** The phases StatusAggregator writes to {@code status.phase}. */
  static final List<String> PHASES = List.of("Pending", "Queued", "Running", "Succeeded", "Failed", "Suspended", "Invalid");
  static final String NAME = "srt_comparisons";

  private final Map<ResourceID, String> phases = new ConcurrentHashMap<>();
  private final MeterRegistry registry;

  ComparisonPhaseGauges(MeterRegistry registry) {
    this.registry = registry;
    PHASES.forEach(this::register);
  }

  void update(ResourceID id, String phase) {
    if (phase == null) {
      phases.remove(id);
      return;
    }
    if (!PHASES.contains(phase)) {
      register(phase);
    }
    phases.put(id, phase);
  }

  void remove(ResourceID id) {
    phases.remove(id);
  }

  private void register(String phase) {
    Gauge.builder(NAME, phases, m -> m.values().stream().filter(p -> Objects.equals(p, phase)).count())
        .description("RouterComparisons by phase").tag("phase", phase).register(registry);
  }
}
