package dev.srt.operator.reconcile;

import dev.srt.operator.host.JobState;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.plan.RunEventType;
import java.time.Duration;
import java.util.List;

/**
 * How soon a cluster's runs are polled again. A run whose job runs but whose arm is not yet
 * benchmarking is starting and is polled every {@code --starting-poll-interval}, so readiness
 * shows quickly; every other run at its GpuCluster's {@code pollInterval}. The starting interval
 * only ever speeds polling up: a {@code pollInterval} shorter than it wins for starting runs too.
 */
final class PollCadence {
  private PollCadence() {
  }

  /** The delay until the next poll of a cluster, given whether any of its runs is starting. */
  static Duration next(Duration startingInterval, Duration pollInterval, boolean anyStarting) {
    return anyStarting && startingInterval.compareTo(pollInterval) < 0 ? startingInterval : pollInterval;
  }

  /**
   * Whether a run is starting after a poll that saw {@code o}, with {@code events} all its events
   * so far. A queued job (Slurm PENDING) is not: it may wait hours for nodes, and polling it
   * faster would tell nothing sooner; it starts counting once the job runs.
   */
  static boolean starting(RunObservation o, List<RunEvent> events) {
    if (o.moreEventsPending()) {
      return true;
    }
    return o.job().state() != JobState.PENDING && !servingOrDone(events);
  }

  private static boolean servingOrDone(List<RunEvent> events) {
    return events.stream().anyMatch(e -> RunEventType.FINISHED.is(e.event())
        || (RunEventType.PHASE.is(e.event()) && RunEventType.Phase.BENCHMARKING.wire().equals(e.text("phase"))));
  }
}
