package dev.srt.operator.reconcile;

import dev.srt.operator.run.HostFailures;
import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import dev.srt.operator.run.EventHistory;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.run.RunMemory;
import dev.srt.operator.run.RunRecord;
import dev.srt.operator.run.RunTracker;
import dev.srt.operator.run.RunView;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's driver of the run lifecycle ({@link RunTracker}): watches every active run, one
 * batched remote command per cluster per poll, steps each run through the tracker against its
 * record, takes the tracker's actions on the poll's own thread (reads a succeeded run's result
 * files, reaps a run killed without outcome), and tells the reconciler (through {@code notify})
 * which comparisons have news. The reconciler only reads the newest {@link RunTracker.Step} of a
 * run; it never waits for a host. Polls run on their own thread and never throw: a failing host
 * becomes a {@link ClusterState}.
 * Each cluster is polled every {@code pollInterval} of its GpuCluster, counted from the start of the
 * previous poll, or sooner while one of its runs starts ({@link PollCadence}). The timer wakes exactly when the next poll is due, and
 * each cluster's poll runs on its own thread, so an unreachable host delays no other cluster.
 */
public final class RunObservations implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunObservations.class);

  /** The poll interval of a cluster whose runs did not say theirs. */
  static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
  /** The least time between the end of a poll and the start of the next one of the same cluster. */
  static final Duration MIN_GAP = Duration.ofMillis(50);
  /** How long a cluster whose poll failed waits for the next (a reconcile or a new connection may come first). */
  static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(5);

  /** One watched run: whose it is, where it runs, what was submitted, and what is known of it. */
  private static final class Tracked {
    final ResourceID primary;
    final String cluster;
    RunHost host;
    RunRecord record;
    final Duration stableInterval;
    final EventHistory history = new EventHistory();
    RunMemory memory = RunMemory.FRESH;
    RunTracker.Step latest;
    /** When the operator cancelled the run (set from the reconcile thread while a poll may step it). */
    volatile Instant cancelledAt;

    Tracked(ResourceID primary, String cluster, RunHost host, RunRecord record, Duration stableInterval) {
      this.primary = primary;
      this.cluster = cluster;
      this.host = host;
      this.record = record;
      this.stableInterval = stableInterval;
    }
  }

  private final Consumer<ResourceID> notify;
  private final Duration startingInterval;
  private final Clock clock;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "srt-run-poller");
    t.setDaemon(true);
    return t;
  });
  private final Map<RunRef, Tracked> tracked = new HashMap<>();
  private final Map<String, ClusterState> clusters = new HashMap<>();
  private final Map<String, Instant> nextPoll = new HashMap<>();
  /** Clusters whose poll runs now: a cluster is never polled twice at once. */
  private final Set<String> polling = new HashSet<>();
  private final ExecutorService pollers = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "srt-cluster-poll");
    t.setDaemon(true);
    return t;
  });
  /** The next tick, timed for the earliest due poll; null while nothing is tracked. */
  private ScheduledFuture<?> nextTick;
  private Instant nextTickAt;

  public RunObservations(Consumer<ResourceID> notify, Duration startingInterval) {
    this(notify, startingInterval, Clock.systemUTC());
  }

  /** {@code clock} is the time the tracker's steps are taken at (grace periods, finish times); polls are timed by the system clock. */
  public RunObservations(Consumer<ResourceID> notify, Duration startingInterval, Clock clock) {
    this.notify = notify;
    this.startingInterval = startingInterval;
    this.clock = clock;
  }

  /**
   * Starts (or keeps) watching run {@code run} submitted as {@code record}. {@code cluster} groups
   * runs that one poll covers.
   */
  public synchronized void track(ResourceID primary, String cluster, RunHost host, RunRef run, RunRecord record, Duration stableInterval) {
    Tracked t = tracked.get(run);
    if (t == null || !java.util.Objects.equals(t.record.jobId(), record.jobId())) {
      tracked.put(run, new Tracked(primary, cluster, host, record, stableInterval));
      nextPoll.putIfAbsent(cluster, Instant.now());
      scheduleTick();
      return;
    }
    t.record = record;
    if (t.host != host) {
      // A new connection (a changed spec or Secret) to the same run: what the run said so far
      // stands, and what the new connection says is news, whatever the backoff.
      t.host = host;
      nextPoll.put(cluster, Instant.now());
      scheduleTick();
    }
  }

  /**
   * The operator is about to cancel the run: a poll that finds its job ended meanwhile sees a run
   * cancelled on purpose, not one killed without outcome whose leftovers it must reap.
   */
  public synchronized void cancelling(RunRef run) {
    Tracked t = tracked.get(run);
    if (t != null) {
      t.cancelledAt = clock.instant();
    }
  }

  /** Stops watching a run and forgets what was seen of it. */
  public synchronized void untrack(RunRef run) {
    tracked.remove(run);
  }

  /** The run's newest step through the tracker; empty until its first poll. */
  public synchronized Optional<RunTracker.Step> latest(RunRef run) {
    Tracked t = tracked.get(run);
    return t == null ? Optional.empty() : Optional.ofNullable(t.latest);
  }

  /** What the host has said of a run so far; empty until its first poll. */
  public synchronized Optional<RunView> view(RunRef run) {
    Tracked t = tracked.get(run);
    return t == null || !t.history.polled() ? Optional.empty() : Optional.of(t.history.view());
  }

  public synchronized int trackedCount() {
    return tracked.size();
  }

  /** What the last poll of a cluster said about reachability; null before the first poll. */
  public synchronized ClusterState clusterState(String cluster) {
    return clusters.get(cluster);
  }

  /** Starts the poll of every cluster that is due, each on its own thread: a slow host delays no other. */
  private void tick() {
    try {
      dueClusters().forEach((cluster, runs) -> {
        try {
          pollers.execute(() -> pollAndReschedule(cluster, runs));
        } catch (RejectedExecutionException closed) {
          synchronized (this) {
            polling.remove(cluster);
          }
        }
      });
    } catch (RuntimeException e) {
      // A poller must never stop: log and go on with the next tick.
      LOG.error("run poller: unexpected error", e);
    } finally {
      synchronized (this) {
        nextTick = null;
        nextTickAt = null;
        scheduleTick();
      }
    }
  }

  private void pollAndReschedule(String cluster, List<RunRef> runs) {
    try {
      pollCluster(cluster, runs);
    } catch (RuntimeException e) {
      LOG.error("run poller: unexpected error polling cluster {}", cluster, e);
      synchronized (this) {
        nextPoll.put(cluster, Instant.now().plus(DEFAULT_POLL_INTERVAL));
      }
    } finally {
      synchronized (this) {
        polling.remove(cluster);
        scheduleTick();
      }
    }
  }

  /**
   * Times the next tick for the earliest poll due, so a poll happens when it is due and not up to
   * a tick later (the status lag is pollInterval plus one poll and one reconcile, nothing more).
   */
  private synchronized void scheduleTick() {
    if (timer.isShutdown()) {
      return;
    }
    Set<String> active = new HashSet<>();
    tracked.values().forEach(t -> active.add(t.cluster));
    active.removeAll(polling);
    Instant earliest = active.stream().map(c -> nextPoll.getOrDefault(c, Instant.now())).min(Instant::compareTo).orElse(null);
    if (earliest == null || (nextTickAt != null && !nextTickAt.isAfter(earliest))) {
      return;
    }
    if (nextTick != null) {
      nextTick.cancel(false);
    }
    long delay = Math.max(0, Duration.between(Instant.now(), earliest).toMillis());
    try {
      nextTick = timer.schedule(this::tick, delay, TimeUnit.MILLISECONDS);
      nextTickAt = earliest;
    } catch (RejectedExecutionException closed) {
      nextTick = null;
      nextTickAt = null;
    }
  }

  private synchronized Map<String, List<RunRef>> dueClusters() {
    Instant now = Instant.now();
    Map<String, List<RunRef>> due = new HashMap<>();
    tracked.forEach((run, t) -> {
      if (!polling.contains(t.cluster) && !nextPoll.getOrDefault(t.cluster, now).isAfter(now)) {
        due.computeIfAbsent(t.cluster, c -> new ArrayList<>()).add(run);
      }
    });
    polling.addAll(due.keySet());
    return due;
  }

  private void pollCluster(String cluster, List<RunRef> runs) {
    Instant polledFrom = Instant.now();
    RunHost host;
    List<ActiveRun> active = new ArrayList<>();
    synchronized (this) {
      // A run may be untracked (its comparison deleted) between choosing the due clusters and now.
      runs = runs.stream().filter(tracked::containsKey).toList();
      if (runs.isEmpty()) {
        return;
      }
      host = tracked.get(runs.get(0)).host;
      for (RunRef run : runs) {
        Tracked t = tracked.get(run);
        active.add(t.history.next(run, t.record.jobId()));
      }
    }
    Map<RunRef, RunObservation> seen;
    try {
      seen = host.poll(active);
    } catch (HostException | RuntimeException e) {
      if (host.isClosed()) {
        // The runs were tracked on a connection since replaced (a changed spec or Secret): its
        // failure ("transport is closed") is no news of the cluster. Their owners' reconciles
        // track them on the current connection, whose poll says how the cluster is.
        synchronized (this) {
          nextPoll.put(cluster, Instant.now().plus(RETRY_AFTER_FAILURE));
        }
        runs.forEach(this::notifyOwner);
        return;
      }
      String message = String.valueOf(e.getMessage());
      // Transport errors already start with the host they were talking to.
      ClusterState down = new ClusterState(false, reason(e, host), message.startsWith(host.describe()) ? message : host.describe() + ": " + message);
      boolean changed;
      synchronized (this) {
        changed = !down.equals(clusters.put(cluster, down));
        nextPoll.put(cluster, Instant.now().plus(RETRY_AFTER_FAILURE));
      }
      if (changed) {
        LOG.warn("cluster {} unreachable: {}", cluster, e.getMessage());
        runs.forEach(this::notifyOwner);
      }
      return;
    }
    List<RunRef> news = new ArrayList<>();
    boolean starting = false;
    Duration stable = DEFAULT_POLL_INTERVAL;
    for (RunRef run : runs) {
      RunObservation o = seen.get(run);
      Tracked t;
      synchronized (this) {
        t = tracked.get(run);
      }
      if (o == null || t == null) {
        continue;
      }
      stable = t.stableInterval;
      boolean changed = t.history.add(o);
      if (step(host, run, t)) {
        changed = true;
      }
      if (changed) {
        news.add(run);
      }
      starting |= PollCadence.starting(o, t.latest);
    }
    synchronized (this) {
      ClusterState up = new ClusterState(true, ConditionReason.Connected, host.describe());
      if (!up.equals(clusters.put(cluster, up))) {
        news.addAll(runs);
      }
      // Counted from the poll's start, so the interval is the time between two looks at the host.
      nextPoll.put(cluster, latest(polledFrom.plus(PollCadence.next(startingInterval, stable, starting)), Instant.now().plus(MIN_GAP)));
    }
    news.stream().distinct().forEach(this::notifyOwner);
  }

  /**
   * Steps a run through the tracker and takes its actions, on this poll's thread; returns whether
   * its status changed.
   */
  private boolean step(RunHost host, RunRef run, Tracked t) {
    RunTracker.Step before = t.latest;
    if (t.cancelledAt != null && t.memory.cancelSentAt() == null) {
      t.memory = t.memory.cancelSent(t.cancelledAt, null);
    }
    RunTracker.Step step = RunTracker.step(t.record, t.history.view(), t.memory, clock.instant());
    if (step.actions().contains(RunTracker.Action.READ_RESULTS)) {
      try {
        t.history.results(host.results(run, step.reading()));
      } catch (HostException | RuntimeException e) {
        t.memory = step.memory().resultReadFailed(String.valueOf(e.getMessage()));
        LOG.warn("run {}: cannot read its result files (attempt {} of {}): {}", run, t.memory.resultReadFailures(),
            RunTracker.RESULT_READS, e.getMessage());
      }
      step = RunTracker.step(t.record, t.history.view(), t.memory, clock.instant());
    }
    if (step.actions().contains(RunTracker.Action.REAP) && t.cancelledAt == null) {
      try {
        host.cancel(run, t.record.jobId());
        t.memory = step.memory().reaped(null);
        LOG.info("run {} ended without reporting an outcome; stopped what it left running", run);
      } catch (HostException | RuntimeException e) {
        t.memory = step.memory().reaped(String.valueOf(e.getMessage()));
        LOG.warn("run {}: cannot stop what it left running: {}", run, e.getMessage());
      }
      step = RunTracker.step(t.record, t.history.view(), t.memory, clock.instant());
    }
    synchronized (this) {
      t.memory = step.memory();
      t.latest = step;
    }
    return before == null || !sameStatus(before.status(), step.status());
  }

  private static boolean sameStatus(dev.srt.operator.api.ArmStatus a, dev.srt.operator.api.ArmStatus b) {
    return dev.srt.operator.base.Mappers.json().valueToTree(a).equals(dev.srt.operator.base.Mappers.json().valueToTree(b));
  }

  private static Instant latest(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private void notifyOwner(RunRef run) {
    Tracked t;
    synchronized (this) {
      t = tracked.get(run);
    }
    if (t != null) {
      notify.accept(t.primary);
    }
  }

  private static ConditionReason reason(Exception e, RunHost host) {
    return e instanceof HostException h ? HostFailures.reason(h.kind(), host.mode()) : ConditionReason.HostError;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    pollers.shutdownNow();
  }
}
