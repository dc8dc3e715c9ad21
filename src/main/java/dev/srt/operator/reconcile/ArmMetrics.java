package dev.srt.operator.reconcile;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.api.ArmPhase;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The comparisons and their arms on /metrics, from their statuses: {@code srt_arms{phase}}, {@code
 * srt_comparisons{phase}}, each arm's results ({@link ArmResultGauges}) and start deadline ({@link StartDeadlines}).
 */
final class ArmMetrics implements StatusListener {
  private final Map<ResourceID, List<String>> armPhases = new ConcurrentHashMap<>();
  private final ArmResultGauges results;
  private final ComparisonPhaseGauges comparisons;
  private final StartDeadlines deadlines;

  ArmMetrics(MeterRegistry metrics) {
    for (ArmPhase phase : ArmPhase.values()) {
      Gauge.builder("srt_arms", armPhases, m -> m.values().stream().flatMap(List::stream).filter(phase.name()::equals).count())
          .description("Arms of all RouterComparisons by phase").tag("phase", phase.name()).register(metrics);
    }
    this.results = new ArmResultGauges(metrics);
    this.comparisons = new ComparisonPhaseGauges(metrics);
    this.deadlines = new StartDeadlines(metrics, java.time.Clock.systemUTC());
  }

  @Override
  public void changed(RouterComparison rc, RouterComparisonStatus old, RouterComparisonStatus next) {
    ResourceID id = ResourceID.fromResource(rc);
    armPhases.put(id, next.arms.stream().map(a -> a.phase).toList());
    results.update(id, next.arms);
    comparisons.update(id, next.phase);
    deadlines.update(rc, next.arms);
  }

  @Override
  public void removed(ResourceID id) {
    armPhases.remove(id);
    results.remove(id);
    comparisons.remove(id);
    deadlines.remove(id);
  }
}
