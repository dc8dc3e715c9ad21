package dev.srt.operator.emulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * etcd's MVCC key space reduced to the latest revision, in memory: keys ordered bytewise, one
 * store revision per change, leases that delete their keys when they are not renewed in time. Keys
 * and values are byte strings; they are held as ISO-8859-1 strings, whose char order is the
 * unsigned byte order etcd ranges use.
 */
public final class EtcdStore {
  /** One key's current version, as {@code mvccpb.KeyValue}. */
  public record KeyValue(String key, String value, long createRevision, long modRevision, long version, long lease) {}

  /** What a lease grant or renewal answers; TTL 0 or less means the lease is gone. */
  public record LeaseInfo(long id, long ttl, long grantedTtl, List<String> keys) {}

  /** A request etcd refuses, with the gRPC code the gateway turns into an HTTP status. */
  public static final class Refused extends RuntimeException {
    private final int grpcCode;

    Refused(int grpcCode, String message) {
      super(message);
      this.grpcCode = grpcCode;
    }

    public int grpcCode() {
      return grpcCode;
    }
  }

  static final int NOT_FOUND = 5;
  static final int INVALID_ARGUMENT = 3;
  static final int FAILED_PRECONDITION = 9;

  private static final class Lease {
    final long ttlSeconds;
    long deadlineMillis;
    final Set<String> keys = new LinkedHashSet<>();

    Lease(long ttlSeconds, long deadlineMillis) {
      this.ttlSeconds = ttlSeconds;
      this.deadlineMillis = deadlineMillis;
    }
  }

  private final NavigableMap<String, KeyValue> keys = new TreeMap<>();
  private final Map<Long, Lease> leases = new HashMap<>();
  private final LongSupplier clockMillis;
  private long revision = 1;

  public EtcdStore(LongSupplier clockMillis) {
    this.clockMillis = clockMillis;
  }

  public static String bytes(byte[] b) {
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  public synchronized long revision() {
    return revision;
  }

  public synchronized int size() {
    return keys.size();
  }

  /** Returns the previous version of the key, or null. */
  public synchronized KeyValue put(String key, String value, long lease) {
    if (key.isEmpty()) {
      throw new Refused(INVALID_ARGUMENT, "etcdserver: key is not provided");
    }
    expire();
    Lease l = null;
    if (lease != 0) {
      l = leases.get(lease);
      if (l == null) {
        throw new Refused(NOT_FOUND, "etcdserver: requested lease not found");
      }
    }
    KeyValue prev = keys.get(key);
    if (prev != null && prev.lease() != 0 && prev.lease() != lease) {
      Lease old = leases.get(prev.lease());
      if (old != null) {
        old.keys.remove(key);
      }
    }
    revision++;
    keys.put(key, new KeyValue(key, value, prev == null ? revision : prev.createRevision(), revision,
        prev == null ? 1 : prev.version() + 1, lease));
    if (l != null) {
      l.keys.add(key);
    }
    return prev;
  }

  /**
   * etcd's range rule: no {@code rangeEnd} is the single key, {@code "\0"} every key from
   * {@code key} on (a key of {@code "\0"} too means all keys), anything else the half-open range.
   */
  public synchronized List<KeyValue> range(String key, String rangeEnd, long limit) {
    expire();
    List<KeyValue> out = new ArrayList<>();
    for (KeyValue kv : select(key, rangeEnd).values()) {
      if (limit > 0 && out.size() >= limit) {
        break;
      }
      out.add(kv);
    }
    return out;
  }

  public synchronized long count(String key, String rangeEnd) {
    expire();
    return select(key, rangeEnd).size();
  }

  public synchronized List<KeyValue> deleteRange(String key, String rangeEnd) {
    expire();
    List<KeyValue> gone = new ArrayList<>(select(key, rangeEnd).values());
    if (!gone.isEmpty()) {
      revision++;
      gone.forEach(this::remove);
    }
    return gone;
  }

  private NavigableMap<String, KeyValue> select(String key, String rangeEnd) {
    if (rangeEnd == null || rangeEnd.isEmpty()) {
      KeyValue kv = keys.get(key);
      TreeMap<String, KeyValue> one = new TreeMap<>();
      if (kv != null) {
        one.put(key, kv);
      }
      return one;
    }
    if (rangeEnd.equals("\0")) {
      return key.equals("\0") ? keys : keys.tailMap(key, true);
    }
    if (rangeEnd.compareTo(key) <= 0) {
      return new TreeMap<>();
    }
    return keys.subMap(key, true, rangeEnd, false);
  }

  private void remove(KeyValue kv) {
    keys.remove(kv.key());
    Lease l = leases.get(kv.lease());
    if (l != null) {
      l.keys.remove(kv.key());
    }
  }

  /** {@code id} 0 lets the server choose, as etcd does. */
  public synchronized LeaseInfo grant(long ttlSeconds, long id) {
    expire();
    if (ttlSeconds <= 0) {
      throw new Refused(INVALID_ARGUMENT, "etcdserver: lease TTL must be positive");
    }
    long lease = id;
    if (lease == 0) {
      do {
        lease = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
      } while (leases.containsKey(lease));
    } else if (leases.containsKey(lease)) {
      throw new Refused(FAILED_PRECONDITION, "etcdserver: lease already exists");
    }
    leases.put(lease, new Lease(ttlSeconds, clockMillis.getAsLong() + ttlSeconds * 1000));
    return new LeaseInfo(lease, ttlSeconds, ttlSeconds, List.of());
  }

  /** Renews the lease for another full TTL; an unknown or expired lease answers TTL 0. */
  public synchronized LeaseInfo keepAlive(long id) {
    expire();
    Lease l = leases.get(id);
    if (l == null) {
      return new LeaseInfo(id, 0, 0, List.of());
    }
    l.deadlineMillis = clockMillis.getAsLong() + l.ttlSeconds * 1000;
    return new LeaseInfo(id, l.ttlSeconds, l.ttlSeconds, List.of());
  }

  /** The remaining TTL (-1 once the lease is gone, as etcd answers) and, on request, its keys. */
  public synchronized LeaseInfo timeToLive(long id) {
    expire();
    Lease l = leases.get(id);
    if (l == null) {
      return new LeaseInfo(id, -1, 0, List.of());
    }
    long left = Math.max(0, (l.deadlineMillis - clockMillis.getAsLong() + 999) / 1000);
    return new LeaseInfo(id, left, l.ttlSeconds, List.copyOf(l.keys));
  }

  public synchronized List<Long> leases() {
    expire();
    return List.copyOf(leases.keySet());
  }

  /** Deletes the lease and its keys. */
  public synchronized void revoke(long id) {
    expire();
    Lease l = leases.remove(id);
    if (l == null) {
      throw new Refused(NOT_FOUND, "etcdserver: requested lease not found");
    }
    dropKeys(l);
  }

  /** Ends the leases whose deadline passed, deleting their keys; also run by the server's sweeper. */
  public synchronized void expire() {
    long now = clockMillis.getAsLong();
    List<Long> due = new ArrayList<>();
    leases.forEach((id, l) -> {
      if (l.deadlineMillis <= now) {
        due.add(id);
      }
    });
    for (long id : due) {
      dropKeys(leases.remove(id));
    }
  }

  private void dropKeys(Lease l) {
    if (l.keys.isEmpty()) {
      return;
    }
    revision++;
    for (String k : List.copyOf(l.keys)) {
      keys.remove(k);
    }
    l.keys.clear();
  }
}
