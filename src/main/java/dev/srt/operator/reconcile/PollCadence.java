package dev.srt.operator.reconcile;

import dev.srt.operator.host.JobState;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.RunTracker;
import java.time.Duration;

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
   * Whether a run is starting after a poll that saw {@code o} and stepped it to {@code step}: its
   * events are still being read, the tracker waits for something (its results), or its job runs and
   * it does not benchmark yet. A queued job (Slurm PENDING) is not: it may wait hours for nodes, and
   * polling it faster would tell nothing sooner; it starts counting once the job runs.
   */
  static boolean starting(RunObservation o, RunTracker.Step step) {
    if (o.moreEventsPending() || !step.actions().isEmpty()) {
      return true;
    }
    return o.job().state() != JobState.PENDING && step.phase() != ArmPhase.Benchmarking && !step.ended();
  }
}
