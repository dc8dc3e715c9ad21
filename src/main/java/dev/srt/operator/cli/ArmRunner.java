package dev.srt.operator.cli;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Durations;
import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.ClusterObserver;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.RunResults;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.base.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.plan.SpecHash;
import dev.srt.operator.run.ArmPhase;
import dev.srt.operator.run.ArmProgress;
import dev.srt.operator.run.Runs;
import dev.srt.operator.render.Scripts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs one arm at a time on one cluster, as {@code srt-operator apply} does: plan, render, submit
 * (idempotent), then one batched poll per interval through a {@link ClusterObserver}, turning the
 * run's events and job state into an {@link ArmStatus} with {@link ArmProgress} (the operator's
 * state machine) until the arm has ended; a run that succeeded then gets its headline numbers
 * from its result files ({@link RunResults}, one more command). {@link #stop()} (from any thread,
 * e.g. a signal handler) cancels the arm in flight; {@link #run} then returns once the host says
 * it ended.
 */
final class ArmRunner {
  /** The namespace part of run directories and job names for runs the CLI starts. */
  static final String NAMESPACE = "default";
  /** How long polls may fail in a row before the run is given up as unobservable. */
  static final Duration MAX_UNREACHABLE = Duration.ofMinutes(5);
  /** How long to keep polling after a cancel before the arm is declared cancelled anyway. */
  static final Duration CANCEL_SETTLE = Duration.ofSeconds(60);
  /** How often reading a succeeded run's result files is tried before the run is left without results. */
  static final int RESULT_ATTEMPTS = 3;


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
    boolean cancelRequested;
    /** The run wrote its {@code finished} event. */
    boolean outcomeReported;
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

    /** From submission to the end (or to now). */
    Duration elapsed(Clock clock) {
      return Duration.between(started, ended != null ? ended : clock.instant());
    }
  }

  private final Backend backend;
  private final ClusterObserver observer;
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

  ArmRunner(Backend backend, RouterComparison comparison, GpuCluster cluster, Mode mode, Duration pollInterval) {
    this(backend, comparison, cluster, mode, pollInterval, Clock.systemUTC());
  }

  ArmRunner(Backend backend, RouterComparison comparison, GpuCluster cluster, Mode mode, Duration pollInterval, Clock clock) {
    this(backend, comparison, cluster, mode, pollInterval, clock, SecretEnvFile.NONE);
  }

  /** {@code secrets}: the values of the spec's secret variables, written to each run directory before the run starts. */
  ArmRunner(Backend backend, RouterComparison comparison, GpuCluster cluster, Mode mode, Duration pollInterval, Clock clock,
      SecretEnvFile secrets) {
    this.secrets = secrets;
    this.backend = backend;
    this.observer = new ClusterObserver(backend);
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

  Backend backend() {
    return backend;
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
    RunPlan plan = plan(arm);
    String script = Scripts.render(plan);
    RunRef ref = ref(arm, runId);
    Run run = new Run(ref, plan, clock.instant());
    run.repetition = repetition;
    run.repetitions = repetitions;
    ArmSpec spec = comparison.getSpec().arms.stream().filter(a -> a.name.equals(arm)).findFirst().orElseThrow();
    String scriptHash = "sha256:" + Hashes.sha256(script);
    String specHash = SpecHash.of(comparison.getSpec(), spec, cluster.getSpec());
    current = run;
    try {
      Submission submission;
      try {
        submission = backend.submit(ref, new RunFiles(script, plan.json(), secrets));
      } catch (HostException e) {
        run.status = ArmProgress.submitted(arm, runId, null, backend.runDirectory(ref).path(), scriptHash, specHash, plan, run.started);
        run.hostError = e;
        fail(run, "submit failed: " + e.getMessage(), clock.instant());
        run.ended = clock.instant();
        return run;
      }
      run.jobId = submission.jobId();
      run.status = ArmProgress.submitted(arm, runId, submission.jobId(), backend.runDirectory(ref).path(),
          scriptHash, specHash, plan, clock.instant());
      if (submission.alreadyExisted()) {
        run.status.message = "found the run's existing job " + submission.jobId();
      }
      listener.submitted(run, submission);
      try {
        follow(run, listener);
        reapIfKilled(run);
      } catch (HostException e) {
        run.hostError = e;
        fail(run, "lost contact with the host for over " + MAX_UNREACHABLE.toMinutes() + " min (the job may still run): "
            + e.getMessage(), clock.instant());
        run.ended = clock.instant();
      }
      return run;
    } finally {
      current = null;
    }
  }

  /** A run killed before its exit handler ran leaves its processes behind: stop them. */
  private void reapIfKilled(Run run) {
    if (run.outcomeReported || run.cancelRequested || run.jobId == null) {
      return;
    }
    try {
      backend.cancel(run.ref, run.jobId);
      run.status.message = run.status.message + "; its leftover processes were stopped";
    } catch (HostException e) {
      run.status.message = run.status.message + "; stopping its leftover processes failed: " + e.getMessage();
    }
  }

  private void follow(Run run, Listener listener) throws HostException {
    long offset = 0;
    Instant unreachableSince = null;
    Instant notFoundSince = null;
    Instant cancelledAt = null;
    HostException cancelError = null;
    boolean catchUp = true; // the first poll right after the submission
    while (!run.phase().terminal()) {
      if (stopRequested && !run.cancelRequested) {
        run.cancelRequested = true;
        listener.cancelling(run);
        try {
          backend.cancel(run.ref, run.jobId);
          cancelError = null;
          listener.cancelled(run, null);
        } catch (HostException e) {
          // tried again after the next poll, until CANCEL_SETTLE has passed
          cancelError = e;
          run.cancelRequested = false;
          listener.cancelled(run, e);
          pause(pollInterval, false);
        }
        cancelledAt = cancelledAt == null ? clock.instant() : cancelledAt;
      } else if (!catchUp) {
        // a stop cuts the pause short only while its cancel is still to be sent
        pause(pollInterval, !run.cancelRequested);
      }
      RunObservation seen;
      try {
        Map<RunRef, RunObservation> polled = observer.poll(List.of(new ActiveRun(run.ref, run.jobId, offset)));
        seen = polled.get(run.ref);
        unreachableSince = null;
      } catch (HostException e) {
        listener.pollFailed(run, e);
        if (unreachableSince == null) {
          unreachableSince = clock.instant();
        } else if (Duration.between(unreachableSince, clock.instant()).compareTo(MAX_UNREACHABLE) > 0) {
          throw e;
        }
        catchUp = false;
        continue;
      }
      Instant now = clock.instant();
      if (seen.eventsRestarted()) {
        // events.jsonl was replaced: replay it from the start into a fresh status
        ArmStatus fresh = ArmProgress.submitted(run.status.name, run.status.runId, run.jobId, run.status.runDir,
            run.status.scriptHash, run.status.specHash, run.plan, run.started);
        run.status = fresh;
      }
      offset = seen.nextOffset();
      catchUp = seen.moreEventsPending();
      if (!seen.events().isEmpty()) {
        listener.events(run, seen.events());
        run.outcomeReported |= ArmProgress.reportedOutcome(seen.events());
      }
      // While events are still being read, the job state may be ahead of them: wait for the rest.
      JobStatus job = catchUp ? null : seen.job();
      ArmProgress.apply(run.status, seen.events(), job, now);
      if (job != null && job.state() == JobState.NOT_FOUND && !run.phase().terminal()) {
        notFoundSince = notFoundSince == null ? now : notFoundSince;
        if (Duration.between(notFoundSince, now).compareTo(Runs.NOT_FOUND_GRACE) > 0) {
          fail(run, "the host no longer knows job " + run.jobId + " and the run reported no outcome"
              + (job.reason() == null ? "" : " (" + job.reason() + ")"), now);
        }
      } else {
        notFoundSince = null;
      }
      if (cancelledAt != null && !run.phase().terminal()
          && Duration.between(cancelledAt, now).compareTo(CANCEL_SETTLE) > 0) {
        run.status.phase = ArmPhase.Cancelled.name();
        run.status.message = cancelError == null
            ? "cancelled; the host did not confirm the end within " + CANCEL_SETTLE.toSeconds() + " s"
            : "the cancel failed (" + cancelError.getMessage() + "); job " + run.jobId + " may still be running";
        run.status.finishedAt = now.toString();
      }
      if (run.phase() == ArmPhase.Succeeded) {
        ArmProgress.results(run.status, results(run));
      }
      if (run.phase().terminal()) {
        run.ended = now;
      }
      listener.polled(run);
    }
  }

  /** The run's headline numbers from its result files; host trouble gets {@link #RESULT_ATTEMPTS} tries. */
  private RunResults results(Run run) {
    HostException last = null;
    for (int attempt = 1; attempt <= RESULT_ATTEMPTS; attempt++) {
      try {
        return RunResults.read(backend, run.ref);
      } catch (HostException e) {
        last = e;
        if (attempt < RESULT_ATTEMPTS) {
          pause(pollInterval, false);
        }
      }
    }
    return RunResults.none("cannot read the result files: " + last.getMessage());
  }

  private static void fail(Run run, String message, Instant now) {
    run.status.phase = ArmPhase.Failed.name();
    run.status.message = message;
    run.status.finishedAt = now.toString();
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
