package dev.srt.operator.reconcile;

import dev.srt.operator.host.RunRef;
import dev.srt.operator.run.RunRecord;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Performs the operator's submits and cancels on its own threads, never on a reconcile thread: a
 * host that takes a minute to answer (or never answers) holds no reconcile. The scheduler asks for
 * an action, and a later reconcile, woken when the action ends, reads its outcome. Each action is
 * keyed by its run and kind, so asking again while it runs, or before its outcome was read, starts
 * nothing new: what a reconcile decides is idempotent. Outcomes live in memory only; after a
 * restart a run with a recorded id is simply submitted again, which finds its job (the backends'
 * submit is idempotent), and a cancel is sent again, which treats "already gone" as done.
 */
final class HostActions implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HostActions.class);
  /** Host calls at once, over all clusters; a call waits for the host at most its own timeout. */
  static final int THREADS = 16;

  enum Kind { SUBMIT, CANCEL }

  /** A host call: a submit returns the run's record, a cancel null. */
  interface Call {
    RunRecord run() throws Exception;
  }

  /** How an action ended: {@code record} of a submit that worked, or {@code failure}. */
  record Outcome(Instant at, RunRecord record, Exception failure) {
    boolean ok() {
      return failure == null;
    }
  }

  record Key(RunRef run, Kind kind) {}

  /**
   * The actions of one comparison at one moment: those running, the outcomes not yet acted on, and
   * why each of them was asked for (a cancel's reason; none for a submit).
   */
  record Snapshot(java.util.Set<Key> running, Map<Key, Outcome> done, Map<Key, CancelReason> reasons) {
    Snapshot {
      running = java.util.Set.copyOf(running);
      done = Map.copyOf(done);
      reasons = Map.copyOf(reasons);
    }

    Snapshot(java.util.Set<Key> running, Map<Key, Outcome> done) {
      this(running, done, Map.of());
    }

    /** Why the action was asked for, while it runs or its outcome is unread; null: no reason given. */
    CancelReason reason(RunRef run, Kind kind) {
      return reasons.get(new Key(run, kind));
    }

    boolean running(RunRef run, Kind kind) {
      return running.contains(new Key(run, kind));
    }

    Outcome outcome(RunRef run, Kind kind) {
      return done.get(new Key(run, kind));
    }
  }

  private final Consumer<ResourceID> wake;
  private final Clock clock;
  private final Map<Key, Outcome> done = new HashMap<>();
  private final Map<Key, ResourceID> running = new HashMap<>();
  private final Map<Key, CancelReason> reasons = new HashMap<>();
  private final Executor executor;
  private final ExecutorService pool;

  /** Host calls on a pool of {@link #THREADS} threads of its own. */
  HostActions(Consumer<ResourceID> wake, Clock clock) {
    this(wake, clock, null);
  }

  /**
   * Host calls on {@code executor} ({@code Runnable::run} performs them in the caller: tests of
   * the decisions); null for a pool of its own.
   */
  HostActions(Consumer<ResourceID> wake, Clock clock, Executor executor) {
    this.wake = wake;
    this.clock = clock;
    if (executor == null) {
      AtomicInteger threads = new AtomicInteger();
      this.pool = Executors.newFixedThreadPool(THREADS, r -> {
        Thread t = new Thread(r, "srt-host-action-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
      this.executor = pool;
    } else {
      this.pool = null;
      this.executor = executor;
    }
  }

  /**
   * Starts {@code call} for the run unless the same action runs or has an unread outcome; {@code
   * owner} is woken when it ends.
   */
  synchronized void request(ResourceID owner, RunRef run, Kind kind, Call call) {
    request(owner, run, kind, null, call);
  }

  /** As {@link #request(ResourceID, RunRef, Kind, Call)}, remembering {@code reason} until the outcome is forgotten. */
  synchronized void request(ResourceID owner, RunRef run, Kind kind, CancelReason reason, Call call) {
    Key key = new Key(run, kind);
    if (running.containsKey(key) || done.containsKey(key)) {
      return;
    }
    running.put(key, owner);
    if (reason != null) {
      reasons.put(key, reason);
    }
    try {
      executor.execute(() -> perform(key, call));
    } catch (RejectedExecutionException closed) {
      running.remove(key);
      reasons.remove(key);
    }
  }

  private void perform(Key key, Call call) {
    Outcome outcome;
    try {
      outcome = new Outcome(clock.instant(), call.run(), null);
    } catch (Exception e) {
      if (e instanceof RuntimeException) {
        LOG.warn("host action {} of run {} failed unexpectedly", key.kind(), key.run(), e);
      }
      outcome = new Outcome(clock.instant(), null, e);
    }
    ResourceID owner;
    synchronized (this) {
      owner = running.remove(key);
      done.put(key, outcome);
    }
    if (owner != null) {
      wake.accept(owner);
    }
  }

  /** The actions of comparison {@code comparison} in {@code namespace}, now. */
  synchronized Snapshot snapshot(String namespace, String comparison) {
    java.util.function.Predicate<Key> mine = k -> k.run().namespace().equals(namespace) && k.run().comparison().equals(comparison);
    Map<Key, Outcome> outcomes = new HashMap<>();
    done.forEach((k, o) -> {
      if (mine.test(k)) {
        outcomes.put(k, o);
      }
    });
    Map<Key, CancelReason> why = new HashMap<>();
    reasons.forEach((k, r) -> {
      if (mine.test(k)) {
        why.put(k, r);
      }
    });
    return new Snapshot(running.keySet().stream().filter(mine).collect(java.util.stream.Collectors.toSet()), outcomes, why);
  }

  /** Whether the action runs now. */
  synchronized boolean running(RunRef run, Kind kind) {
    return running.containsKey(new Key(run, kind));
  }

  /** The outcome of the action, once it ended; null while it runs or when it was never asked for. */
  synchronized Outcome outcome(RunRef run, Kind kind) {
    return done.get(new Key(run, kind));
  }

  /** Forgets an outcome that was acted on: asking again starts the action again. */
  synchronized void forget(RunRef run, Kind kind) {
    Key key = new Key(run, kind);
    done.remove(key);
    if (!running.containsKey(key)) {
      reasons.remove(key);
    }
  }

  /** Forgets every outcome of a comparison's runs (it is gone). */
  synchronized void forgetAll(String namespace, String comparison) {
    done.keySet().removeIf(k -> k.run().namespace().equals(namespace) && k.run().comparison().equals(comparison));
    reasons.keySet().removeIf(k -> !running.containsKey(k) && k.run().namespace().equals(namespace) && k.run().comparison().equals(comparison));
  }

  @Override
  public void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }
}
