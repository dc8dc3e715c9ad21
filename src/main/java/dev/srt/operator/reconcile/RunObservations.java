package dev.srt.operator.reconcile;

import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.plan.RunEventType;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.RunResults;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
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
 * Watches every active run, one batched remote command per cluster per poll, and tells the
 * reconciler (through {@code notify}) which comparisons have news. It keeps every event of every
 * tracked run, so the reconciler can replay a run's whole history into its status at any time.
 * Polls run on their own thread and never throw: a failing host becomes a {@link ClusterState}.
 * Each cluster is polled every {@code pollInterval} of its GpuCluster, counted from the start of the
 * previous poll, or sooner while one of its runs starts ({@link PollCadence}). The timer wakes exactly when the next poll is due, and
 * each cluster's poll runs on its own thread, so an unreachable host delays no other cluster.
 *
 * <p>When a poll brings a run's {@code finished} event with status {@code succeeded}, the run's
 * result files are read ({@link RunHost#results}, one command per finished run) before that poll's
 * events are kept, so no view shows a succeeded run whose results are still to come. A host that
 * cannot be asked leaves the run's new events unread until the next poll, at most
 * {@value #MAX_RESULT_ATTEMPTS} times; then the run counts as having no results.
 */
public final class RunObservations implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunObservations.class);

  /** The poll interval of a cluster whose runs did not say theirs. */
  static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(5);
  /** The least time between the end of a poll and the start of the next one of the same cluster. */
  static final Duration MIN_GAP = Duration.ofMillis(50);
  /** How long a cluster whose poll failed waits for the next (a reconcile or a new connection may come first). */
  static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(5);

  /** How often reading a finished run's result files may fail (host trouble) before it is given up. */
  static final int MAX_RESULT_ATTEMPTS = 3;

  /**
   * What is known of one run: every event so far, the last job state, and once it has finished
   * well, the results read from its files (else null).
   */
  public record RunView(List<RunEvent> events, JobStatus job, Instant lastPolled, RunResults results) {}

  private record Tracked(ResourceID primary, String cluster, RunHost host, String jobId, Duration stableInterval) {}

  private final Consumer<ResourceID> notify;
  private final Duration startingInterval;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "srt-run-poller");
    t.setDaemon(true);
    return t;
  });
  private final Map<RunRef, Tracked> tracked = new HashMap<>();
  private final Map<RunRef, List<RunEvent>> events = new HashMap<>();
  private final Map<RunRef, Long> offsets = new HashMap<>();
  private final Map<RunRef, JobStatus> jobs = new HashMap<>();
  private final Map<RunRef, Instant> polledAt = new HashMap<>();
  private final Map<RunRef, RunResults> results = new HashMap<>();
  private final Map<RunRef, Integer> resultFailures = new HashMap<>();
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
    this.notify = notify;
    this.startingInterval = startingInterval;
  }

  /** Starts (or keeps) watching a run. {@code cluster} groups runs that one poll covers. */
  public synchronized void track(ResourceID primary, String cluster, RunHost host, RunRef run, String jobId, Duration stableInterval) {
    Tracked t = tracked.get(run);
    if (t == null || t.host() != host || !java.util.Objects.equals(t.jobId(), jobId)) {
      tracked.put(run, new Tracked(primary, cluster, host, jobId, stableInterval));
      if (t != null && t.host() != host) {
        // A new connection (a changed spec or Secret): what it says is news, whatever the backoff.
        nextPoll.put(cluster, Instant.now());
      } else {
        nextPoll.putIfAbsent(cluster, Instant.now());
      }
      scheduleTick();
    }
  }

  /** Stops watching a run and forgets what was seen of it. */
  public synchronized void untrack(RunRef run) {
    tracked.remove(run);
    events.remove(run);
    offsets.remove(run);
    jobs.remove(run);
    polledAt.remove(run);
    results.remove(run);
    resultFailures.remove(run);
  }

  /** What has been seen of a run; empty until its first poll. */
  public synchronized Optional<RunView> view(RunRef run) {
    if (!polledAt.containsKey(run)) {
      return Optional.empty();
    }
    return Optional.of(new RunView(List.copyOf(events.getOrDefault(run, List.of())), jobs.get(run), polledAt.get(run),
        results.get(run)));
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
    tracked.values().forEach(t -> active.add(t.cluster()));
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
      if (!polling.contains(t.cluster()) && !nextPoll.getOrDefault(t.cluster(), now).isAfter(now)) {
        due.computeIfAbsent(t.cluster(), c -> new ArrayList<>()).add(run);
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
      host = tracked.get(runs.get(0)).host();
      for (RunRef run : runs) {
        active.add(new ActiveRun(run, tracked.get(run).jobId(), offsets.getOrDefault(run, 0L)));
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
      ClusterState down = new ClusterState(false, reason(e), message.startsWith(host.describe()) ? message : host.describe() + ": " + message);
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
    Set<RunRef> readLater = new HashSet<>();
    Map<RunRef, RunResults> read = readResults(host, seen, readLater);
    List<RunRef> news = new ArrayList<>();
    synchronized (this) {
      ClusterState up = new ClusterState(true, "Connected", host.describe());
      if (!up.equals(clusters.put(cluster, up))) {
        news.addAll(runs);
      }
      Instant now = Instant.now();
      boolean starting = false;
      Duration stable = DEFAULT_POLL_INTERVAL;
      for (RunRef run : runs) {
        RunObservation o = seen.get(run);
        Tracked t = tracked.get(run);
        if (o == null || t == null) {
          continue;
        }
        stable = t.stableInterval();
        if (readLater.contains(run)) {
          // its events are read again next time, with another try at its result files
          starting = true;
          continue;
        }
        if (read.containsKey(run)) {
          results.put(run, read.get(run));
        }
        boolean first = !polledAt.containsKey(run);
        polledAt.put(run, now);
        if (o.eventsRestarted()) {
          events.remove(run);
        }
        if (!o.events().isEmpty()) {
          events.computeIfAbsent(run, r -> new ArrayList<>()).addAll(o.events());
        }
        offsets.put(run, o.nextOffset());
        JobStatus previous = jobs.put(run, o.job());
        if (first || !o.events().isEmpty() || !o.job().equals(previous)) {
          news.add(run);
        }
        starting |= PollCadence.starting(o, events.getOrDefault(run, List.of()));
      }
      // Counted from the poll's start, so the interval is the time between two looks at the host.
      nextPoll.put(cluster, latest(polledFrom.plus(PollCadence.next(startingInterval, stable, starting)), now.plus(MIN_GAP)));
    }
    news.forEach(this::notifyOwner);
  }

  /**
   * The results of every run that this poll saw finish well; runs whose files could not be
   * read for host trouble go to {@code readLater} until they have used up their attempts.
   */
  private Map<RunRef, RunResults> readResults(RunHost host, Map<RunRef, RunObservation> seen, Set<RunRef> readLater) {
    Map<RunRef, RunResults> read = new HashMap<>();
    seen.forEach((run, o) -> {
      if (!finishedWell(o.events())) {
        return;
      }
      try {
        read.put(run, host.results(run));
        synchronized (this) {
          resultFailures.remove(run);
        }
      } catch (HostException | RuntimeException e) {
        int failures;
        synchronized (this) {
          failures = resultFailures.merge(run, 1, Integer::sum);
        }
        LOG.warn("run {}: cannot read its result files (attempt {} of {}): {}", run, failures, MAX_RESULT_ATTEMPTS, e.getMessage());
        if (failures >= MAX_RESULT_ATTEMPTS) {
          read.put(run, RunResults.none("cannot read the result files: " + e.getMessage()));
        } else {
          readLater.add(run);
        }
      }
    });
    return read;
  }

  private static boolean finishedWell(List<RunEvent> events) {
    return events.stream().anyMatch(e -> RunEventType.FINISHED.is(e.event()) && "succeeded".equals(e.text("status")));
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
      notify.accept(t.primary());
    }
  }

  private static String reason(Exception e) {
    if (e instanceof HostException h) {
      return switch (h.kind()) {
        case AUTH -> "AuthFailed";
        case HOST_KEY -> "HostKeyMismatch";
        case TIMEOUT -> "Timeout";
        case UNREACHABLE -> "Unreachable";
        default -> "HostError";
      };
    }
    return "HostError";
  }

  @Override
  public void close() {
    timer.shutdownNow();
    pollers.shutdownNow();
  }
}
