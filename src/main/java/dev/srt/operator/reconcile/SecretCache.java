package dev.srt.operator.reconcile;

import io.fabric8.kubernetes.api.model.Secret;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/**
 * The Secrets that GpuClusters name, each read by a {@code get} at most once per {@code ttl}. The
 * operator may only {@code get} Secrets (never list or watch them, see docs/operator.md), so an
 * informer is not an option: this cache is what keeps 50 reconciler threads from reading the same
 * Secret 50 times. A replaced Secret (a rotated key) is seen within {@code ttl}.
 *
 * <p>Concurrent readers of one Secret share one request; readers of different Secrets never wait
 * for each other. A failed read is not cached: the next reader tries again. A missing Secret
 * (null) is cached like any answer.
 */
final class SecretCache {
  /** How long a Secret read is reused. */
  static final Duration DEFAULT_TTL = Duration.ofSeconds(10);

  private record Read(long atNanos, CompletableFuture<Secret> secret) {}

  private final BiFunction<String, String, Secret> get;
  private final long ttlNanos;
  private final LongSupplier nanoClock;
  private final ConcurrentHashMap<String, Read> reads = new ConcurrentHashMap<>();

  /** @param get reads a Secret by namespace and name, null when there is none */
  SecretCache(BiFunction<String, String, Secret> get, Duration ttl, LongSupplier nanoClock) {
    this.get = get;
    this.ttlNanos = ttl.toNanos();
    this.nanoClock = nanoClock;
  }

  SecretCache(BiFunction<String, String, Secret> get, Duration ttl) {
    this(get, ttl, System::nanoTime);
  }

  /** The Secret, or null when it does not exist; whatever {@code get} throws is rethrown. */
  Secret get(String namespace, String name) {
    String key = namespace + "/" + name;
    while (true) {
      long now = nanoClock.getAsLong();
      Read current = reads.get(key);
      if (current != null && fresh(current, now)) {
        return await(current);
      }
      Read mine = new Read(now, new CompletableFuture<>());
      boolean won = current == null ? reads.putIfAbsent(key, mine) == null : reads.replace(key, current, mine);
      if (won) {
        try {
          mine.secret().complete(get.apply(namespace, name));
        } catch (RuntimeException e) {
          mine.secret().completeExceptionally(e);
          reads.remove(key, mine);
        }
        return await(mine);
      }
    }
  }

  private boolean fresh(Read read, long now) {
    if (read.secret().isCompletedExceptionally()) {
      return false;
    }
    return ttlNanos > 0 && now - read.atNanos() < ttlNanos;
  }

  private static Secret await(Read read) {
    try {
      return read.secret().join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  /** Forgets every read (tests, shutdown). */
  void clear() {
    reads.clear();
  }
}
