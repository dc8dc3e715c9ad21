package dev.srt.operator.reconcile;

import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches every active run, one batched remote command per cluster per poll, and tells the
 * reconciler (through {@code notify}) which comparisons have news. It keeps every event of every
 * tracked run, so the reconciler can replay a run's whole history into its status at any time.
 * Polls run on their own thread and never throw: a failing host becomes a {@link ClusterState}.
 * Polling is fast while an arm is starting and slows down once every arm is stable.
 */
public final class RunObservations implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RunObservations.class);

  /** What is known of one run: every event so far and the last job state. */
  public record RunView(List<RunEvent> events, JobStatus job, Instant lastPolled) {}

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
  private final Map<String, ClusterState> clusters = new HashMap<>();
  private final Map<String, Instant> nextPoll = new HashMap<>();

  public RunObservations(Consumer<ResourceID> notify, Duration startingInterval) {
    this.notify = notify;
    this.startingInterval = startingInterval;
    timer.scheduleWithFixedDelay(this::tick, 200, 200, TimeUnit.MILLISECONDS);
  }

  /** Starts (or keeps) watching a run. {@code cluster} groups runs that one poll covers. */
  public synchronized void track(ResourceID primary, String cluster, RunHost host, RunRef run, String jobId, Duration stableInterval) {
    Tracked t = tracked.get(run);
    if (t == null || t.host() != host || !java.util.Objects.equals(t.jobId(), jobId)) {
      tracked.put(run, new Tracked(primary, cluster, host, jobId, stableInterval));
      nextPoll.putIfAbsent(cluster, Instant.now());
    }
  }

  /** Stops watching a run and forgets what was seen of it. */
  public synchronized void untrack(RunRef run) {
    tracked.remove(run);
    events.remove(run);
    offsets.remove(run);
    jobs.remove(run);
    polledAt.remove(run);
  }

  /** What has been seen of a run; empty until its first poll. */
  public synchronized Optional<RunView> view(RunRef run) {
    if (!polledAt.containsKey(run)) {
      return Optional.empty();
    }
    return Optional.of(new RunView(List.copyOf(events.getOrDefault(run, List.of())), jobs.get(run), polledAt.get(run)));
  }

  public synchronized int trackedCount() {
    return tracked.size();
  }

  /** What the last poll of a cluster said about reachability; null before the first poll. */
  public synchronized ClusterState clusterState(String cluster) {
    return clusters.get(cluster);
  }

  private void tick() {
    try {
      Map<String, List<RunRef>> due = dueClusters();
      due.forEach(this::pollCluster);
    } catch (RuntimeException e) {
      // A poller must never stop: log and go on with the next tick.
      LOG.error("run poller: unexpected error", e);
    }
  }

  private synchronized Map<String, List<RunRef>> dueClusters() {
    Instant now = Instant.now();
    Map<String, List<RunRef>> due = new HashMap<>();
    tracked.forEach((run, t) -> {
      if (!nextPoll.getOrDefault(t.cluster(), now).isAfter(now)) {
        due.computeIfAbsent(t.cluster(), c -> new ArrayList<>()).add(run);
      }
    });
    return due;
  }

  private void pollCluster(String cluster, List<RunRef> runs) {
    RunHost host;
    List<ActiveRun> active = new ArrayList<>();
    synchronized (this) {
      host = tracked.get(runs.get(0)).host();
      for (RunRef run : runs) {
        active.add(new ActiveRun(run, tracked.get(run).jobId(), offsets.getOrDefault(run, 0L)));
      }
    }
    Map<RunRef, RunObservation> seen;
    try {
      seen = host.poll(active);
    } catch (HostException | RuntimeException e) {
      ClusterState down = new ClusterState(false, reason(e), host.describe() + ": " + e.getMessage());
      boolean changed;
      synchronized (this) {
        changed = !down.equals(clusters.put(cluster, down));
        nextPoll.put(cluster, Instant.now().plus(Duration.ofSeconds(5)));
      }
      if (changed) {
        LOG.warn("cluster {} unreachable: {}", cluster, e.getMessage());
        runs.forEach(this::notifyOwner);
      }
      return;
    }
    List<RunRef> news = new ArrayList<>();
    synchronized (this) {
      ClusterState up = new ClusterState(true, "Connected", host.describe());
      if (!up.equals(clusters.put(cluster, up))) {
        news.addAll(runs);
      }
      Instant now = Instant.now();
      boolean starting = false;
      Duration stable = Duration.ofSeconds(5);
      for (RunRef run : runs) {
        RunObservation o = seen.get(run);
        Tracked t = tracked.get(run);
        if (o == null || t == null) {
          continue;
        }
        stable = t.stableInterval();
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
        starting |= o.moreEventsPending() || !servingOrDone(events.getOrDefault(run, List.of()));
      }
      nextPoll.put(cluster, now.plus(starting ? startingInterval : stable));
    }
    news.forEach(this::notifyOwner);
  }

  private static boolean servingOrDone(List<RunEvent> events) {
    return events.stream().anyMatch(e -> e.event().equals("finished")
        || (e.event().equals("phase") && "benchmarking".equals(e.text("phase"))));
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
  }
}
