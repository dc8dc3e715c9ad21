package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Durations;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.api.ArmPhase;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code srt_arm_start_deadline_timestamp_seconds{namespace, comparison, arm}}: while an arm is
 * {@code Starting}, the time by which its run must serve. Each readiness gate has the comparison's
 * {@code healthCheck.timeout}, so the deadline is the moment the operator saw the run start its
 * processes plus that budget for each of the run's gates. The run's script fails a gate that
 * overruns its budget by itself; a run still Starting past its deadline is one whose news does not
 * reach the operator or whose script hangs, which is what the {@code SrtArmStuckStarting} alert
 * is for ({@code time() > srt_arm_start_deadline_timestamp_seconds}).
 *
 * <p>The start is when the operator first saw the run Starting, so after an operator restart a
 * deadline is later than the run's real one, never earlier: the alert may come late, never
 * falsely.
 */
final class StartDeadlines {
  static final String NAME = "srt_arm_start_deadline_timestamp_seconds";

  private record Start(String runId, Instant seen, double deadline) {}

  private final MultiGauge gauge;
  private final Clock clock;
  private final Map<ResourceID, Map<String, Start>> starts = new ConcurrentHashMap<>();

  StartDeadlines(MeterRegistry registry, Clock clock) {
    this.clock = clock;
    this.gauge = MultiGauge.builder(NAME).baseUnit("seconds")
        .description("While an arm is Starting: the Unix time by which its run must serve (healthCheck.timeout per readiness gate)")
        .register(registry);
  }

  void update(RouterComparison rc, List<ArmStatus> arms) {
    ResourceID id = ResourceID.fromResource(rc);
    Duration perGate = Durations.parse(rc.getSpec() == null || rc.getSpec().healthCheck == null ? null : rc.getSpec().healthCheck.timeout,
        Planner.DEFAULT_HEALTH_TIMEOUT);
    Map<String, Start> before = starts.getOrDefault(id, Map.of());
    Map<String, Start> next = new ConcurrentHashMap<>();
    for (ArmStatus a : arms) {
      if (a.name == null || a.runId == null || !ArmPhase.Starting.name().equals(a.phase)) {
        continue;
      }
      Start known = before.get(a.name);
      Instant seen = known != null && a.runId.equals(known.runId()) ? known.seen() : clock.instant();
      int gates = Math.max(1, a.gates == null ? 0 : a.gates.size());
      Instant deadline = seen.plus(perGate.multipliedBy(gates));
      next.put(a.name, new Start(a.runId, seen, deadline.toEpochMilli() / 1000.0));
    }
    if (next.isEmpty()) {
      if (starts.remove(id) != null) {
        publish();
      }
    } else if (!next.equals(before)) {
      starts.put(id, next);
      publish();
    }
  }

  void remove(ResourceID id) {
    if (starts.remove(id) != null) {
      publish();
    }
  }

  private synchronized void publish() {
    List<MultiGauge.Row<?>> rows = new ArrayList<>();
    starts.forEach((id, arms) -> arms.forEach((arm, start) -> rows.add(MultiGauge.Row.of(
        Tags.of("namespace", id.getNamespace().orElse(""), "comparison", id.getName(), "arm", arm), start.deadline()))));
    gauge.register(rows, true);
  }
}
