package dev.srt.operator.cli;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Durations;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.EventHistory;
import dev.srt.operator.run.PastRuns;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.run.RunMemory;
import dev.srt.operator.run.RunRecord;
import dev.srt.operator.run.RunTracker;
import dev.srt.operator.run.Submissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The CLI's driver of the run lifecycle ({@link RunTracker}), one arm at a time on one cluster, as
 * {@code srt-operator apply} does: the one submit step ({@link Submissions}), then one batched poll
 * per interval, each look stepped through the tracker and its actions taken (read the results,
 * reap a run killed without outcome), until the run has ended. {@link #stop()} (from any thread,
 * e.g. a signal handler) cancels the run in flight; {@link #run} then returns once the tracker says
 * it ended. The CLI's own patience is its only rule: a host that cannot be polled for
 * {@link #MAX_UNREACHABLE} ends the wait (the job may still run).
 */
final class ArmRunner {
  /** The namespace part of run directories and job names for runs the CLI starts. */
  static final String NAMESPACE = "default";
  /** How long polls may fail in a row before the run is given up as unobservable. */
  static final Duration MAX_UNREACHABLE = Duration.ofMinutes(5);

  /** What the caller sees of a run while it goes on; every method runs on the thread calling {@link #run}. */
  interface Listener {
    /** The run's job was started, or found already started. */
    default void submitted(Run run, Submission submission) {}

    /** New lines of events.jsonl, in file order, before they are applied to the status. */
    default void events(Run run, List<RunEvent> events) {}

    /** After every poll, with the status updated. */
    default void polled(Run run) {}

    /** A poll failed; polling goes on until {@link #MAX_UNREACHABLE}. */
    default void pollFailed(Run run, HostException e) {}

    /** A cancel is about to be sent to the host. */
    default void cancelling(Run run) {}

    /** The cancel was sent ({@code error} null) or failed. */
    default void cancelled(Run run, HostException error) {}
  }

  /** One run of one arm: its identity on the host and its status so far. */
  static final class Run {
    final RunRef ref;
    final RunPlan plan;
    Instant started;
    String jobId;
    ArmStatus status;
    Instant ended;
    RunRecord record;
    RunMemory memory = RunMemory.FRESH;
    final EventHistory history = new EventHistory();
    /** Why the host could not be used, when that ended the run. */
    HostException hostError;
    /** Which repetition of its arm this run is, and of how many. */
    int repetition = 1;
    int repetitions = 1;

    Run(RunRef ref, RunPlan plan, Instant started) {
      this.ref = ref;
      this.plan = plan;
      this.started = started;
    }

    ArmPhase phase() {
      return ArmPhase.of(status == null ? null : status.phase);
    }

    boolean cancelRequested() {
      return memory.cancelSentAt() != null;
    }

    /** From submission to the end (or to now). */
    Duration elapsed(Clock clock) {
      return Duration.between(started, ended != null ? ended : clock.instant());
    }
  }

  private final RunHost host;
  private final RouterComparison comparison;
  private final GpuCluster cluster;
  private final Mode mode;
  private final Duration pollInterval;
  private final Clock clock;
  private final SecretEnvFile secrets;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition();
  private volatile boolean stopRequested;
  private volatile Run current;
  /** Set by {@link #attach}: a stop then ends the watching, never the run. */
  private volatile boolean detaching;

  ArmRunner(RunHost host, RouterComparison comparison, GpuCluster cluster, Mode mode, Duration pollInterval) {
    this(host, comparison, cluster, mode, pollInterval, Clock.systemUTC());
  }

  ArmRunner(RunHost host, RouterComparison comparison, GpuCluster cluster, Mode mode, Duration pollInterval, Clock clock) {
    this(host, comparison, cluster, mode, pollInterval, clock, SecretEnvFile.NONE);
  }

  /** {@code secrets}: the values of the spec's secret variables, written to each run directory before the run starts. */
  ArmRunner(RunHost host, RouterComparison comparison, GpuCluster cluster, Mode mode, Duration pollInterval, Clock clock,
      SecretEnvFile secrets) {
    this.secrets = secrets;
    this.host = host;
    this.comparison = comparison;
    this.cluster = cluster;
    this.mode = mode;
    this.pollInterval = pollInterval;
    this.clock = clock;
  }

  /** The run of {@code arm} with id {@code runId}, as the CLI names it. */
  RunRef ref(String arm, String runId) {
    return new RunRef(NAMESPACE, comparison.getMetadata().getName(), arm, runId);
  }

  /** The plan every run of {@code arm} executes. */
  RunPlan plan(String arm) {
    return Planner.plan(comparison, cluster, arm, mode);
  }

  RunHost host() {
    return host;
  }

  /** The run in flight, if any. */
  Run current() {
    return current;
  }

  boolean stopRequested() {
    return stopRequested;
  }

  /**
   * Asks the arm in flight to stop and no further arm to start. Returns at once; the thread in
   * {@link #run} sends the cancel and waits for the run to end. Safe from any thread.
   */
  void stop() {
    stopRequested = true;
    lock.lock();
    try {
      wake.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Submits {@code arm} as run {@code runId} and follows it until it has ended. Returns null
   * without submitting anything when {@link #stop()} came first. A host that refuses the
   * submission, or cannot be observed for {@link #MAX_UNREACHABLE}, fails the arm with the error
   * in {@link Run#hostError} (after a lost contact the job may still run on the host).
   */
  Run run(String arm, String runId, Listener listener) {
    return run(arm, 1, 1, runId, listener);
  }

  /** {@link #run(String, String, Listener)} as repetition {@code repetition} of {@code repetitions}. */
  Run run(String arm, int repetition, int repetitions, String runId, Listener listener) {
    if (stopRequested) {
      return null;
    }
    Run run = newRun(arm, repetition, repetitions, runId);
    current = run;
    try {
      if (!submitted(run, null)) {
        return run;
      }
      listener.submitted(run, new Submission(run.jobId, run.record.foundExisting()));
      try {
        follow(run, listener);
      } catch (HostException e) {
        run.hostError = e;
        run.status.phase(ArmPhase.Failed);
        run.status.message = "lost contact with the host for over " + MAX_UNREACHABLE.toMinutes() + " min (the job may still run): "
            + e.getMessage();
        run.status.finishedAt = clock.instant().toString();
        run.ended = clock.instant();
      }
      return run;
    } finally {
      current = null;
    }
  }

  /**
   * Submits {@code arm} as run {@code runId} to start after {@code after} (null: at once) and
   * returns without following it: what {@code apply --detach} leaves on the host. A refused
   * submission is in {@link Run#hostError}.
   */
  Run submit(String arm, int repetition, int repetitions, String runId, RunFiles.After after) {
    Run run = newRun(arm, repetition, repetitions, runId);
    submitted(run, after);
    return run;
  }

  private Run newRun(String arm, int repetition, int repetitions, String runId) {
    Run run = new Run(ref(arm, runId), plan(arm), clock.instant());
    run.repetition = repetition;
    run.repetitions = repetitions;
    return run;
  }

  /** The one submit step of both: true when the host took the run; else the arm has failed with {@link Run#hostError}. */
  private boolean submitted(Run run, RunFiles.After after) {
    Submissions.Prepared prepared = Submissions.Prepared.of(comparison, cluster, run.plan);
    try {
      run.record = Submissions.submit(host, run.ref, prepared, secrets, clock.instant(), after);
      run.jobId = run.record.jobId();
      run.status = RunTracker.submitted(run.record);
      return true;
    } catch (HostException e) {
      run.record = Submissions.unsubmitted(host, run.ref, prepared, run.started);
      run.hostError = e;
      run.status = RunTracker.submitFailed(run.record, e.getMessage(), clock.instant());
      run.ended = clock.instant();
      return false;
    }
  }

  /**
   * Follows a run that is already on the host ({@code past}, found in flight) until it has ended,
   * as {@link #run} follows one it submitted; {@link #stop()} ends the wait without cancelling
   * anything (the caller detaches). Null when {@link #stop()} came first.
   */
  Run attach(PastRuns.PastRun past, int repetitions, Listener listener) {
    if (stopRequested) {
      return null;
    }
    RunRecord record = past.replayed();
    Run run = new Run(past.ref(), null, record.submittedAt().equals(Instant.EPOCH) ? clock.instant() : record.submittedAt());
    run.repetition = past.repetition();
    run.repetitions = repetitions;
    run.record = record;
    run.jobId = record.jobId();
    run.status = past.status();
    current = run;
    detaching = true;
    try {
      listener.submitted(run, new Submission(run.jobId, true));
      follow(run, listener);
    } catch (HostException e) {
      run.hostError = e;
      run.status.message = "lost contact with the host for over " + MAX_UNREACHABLE.toMinutes() + " min (the job may still run): "
          + e.getMessage();
    } finally {
      current = null;
    }
    return run;
  }

  private void follow(Run run, Listener listener) throws HostException {
    Instant unreachableSince = null;
    boolean first = true;
    while (true) {
      if (stopRequested && detaching) {
        return; // the run goes on; whoever attached only stops watching
      }
      if (stopRequested && (!run.cancelRequested() || run.memory.cancelFailure() != null)) {
        if (run.memory.cancelFailure() != null) {
          pause(pollInterval, false);
        }
        cancel(run, listener);
      } else if (!first && run.history.caughtUp()) {
        // a stop cuts the pause short only while its cancel is still to be sent
        pause(pollInterval, detaching || !run.cancelRequested());
      }
      first = false;
      try {
        Map<RunRef, RunObservation> polled = host.poll(List.of(run.history.next(run.ref, run.jobId)));
        RunObservation seen = polled.get(run.ref);
        unreachableSince = null;
        if (!seen.events().isEmpty()) {
          listener.events(run, seen.events());
        }
        run.history.add(seen);
      } catch (HostException e) {
        listener.pollFailed(run, e);
        if (unreachableSince == null) {
          unreachableSince = clock.instant();
        } else if (Duration.between(unreachableSince, clock.instant()).compareTo(MAX_UNREACHABLE) > 0) {
          throw e;
        }
        continue;
      }
      RunTracker.Step step = step(run);
      if (step.actions().contains(RunTracker.Action.READ_RESULTS)) {
        readResults(run, step.reading());
        step = step(run);
      }
      if (step.actions().contains(RunTracker.Action.REAP)) {
        reap(run);
        step = step(run);
      }
      if (step.ended()) {
        run.ended = clock.instant();
      }
      listener.polled(run);
      if (step.ended()) {
        return;
      }
    }
  }

  private RunTracker.Step step(Run run) {
    RunTracker.Step step = RunTracker.step(run.record, run.history.view(), run.memory, clock.instant());
    run.memory = step.memory();
    run.status = step.status();
    return step;
  }

  private void cancel(Run run, Listener listener) {
    listener.cancelling(run);
    try {
      host.cancel(run.ref, run.jobId);
      run.memory = run.memory.cancelSent(clock.instant(), null);
      listener.cancelled(run, null);
    } catch (HostException e) {
      // tried again before the next poll, until the tracker's cancel settle has passed
      run.memory = run.memory.cancelSent(clock.instant(), e.getMessage());
      listener.cancelled(run, e);
    }
  }

  private void readResults(Run run, RunTracker.Reading reading) {
    try {
      run.history.results(host.results(run.ref, reading));
    } catch (HostException e) {
      run.memory = run.memory.resultReadFailed(e.getMessage());
    }
  }

  private void reap(Run run) {
    try {
      host.cancel(run.ref, run.jobId);
      run.memory = run.memory.reaped(null);
    } catch (HostException e) {
      run.memory = run.memory.reaped(e.getMessage());
    }
  }

  /** Sleeps for {@code d}, or less when {@code wakeOnStop} and {@link #stop()} is (or was) called. */
  private void pause(Duration d, boolean wakeOnStop) {
    lock.lock();
    try {
      long nanos = d.toNanos();
      while (nanos > 0 && !(wakeOnStop && stopRequested)) {
        nanos = wake.awaitNanos(nanos);
      }
    } catch (InterruptedException e) {
      // An interrupt is a stop: the run is cancelled and followed to its end, which needs the
      // pauses to keep working, so the interrupt status is consumed here rather than restored.
      stopRequested = true;
    } finally {
      lock.unlock();
    }
  }

  /** {@code min(pollInterval, 1 s)} of the cluster (default 5 s). */
  static Duration pollInterval(GpuCluster cluster) {
    Duration configured = Durations.parse(cluster.getSpec().pollInterval, Duration.ofSeconds(5));
    Duration max = Duration.ofSeconds(1);
    return configured.compareTo(max) < 0 && !configured.isZero() ? configured : max;
  }
}
