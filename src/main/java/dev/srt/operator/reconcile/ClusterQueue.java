package dev.srt.operator.reconcile;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The comparisons that want one direct GPU host, in arrival order. A host runs one comparison at a
 * time, all of its arms, so that they are measured close together and no other comparison's run
 * waits on its lease in between; the rest wait their turn in the order they were created. Slurm
 * clusters need no such queue: Slurm has its own.
 *
 * <p>The host's lease (docs/run-protocol.md) is what keeps runs apart; this queue is what makes
 * the order fair and visible. It lives in memory and is rebuilt by the comparisons' reconciles
 * after a restart: one that already has a run there, or was given its turn, keeps the host until
 * it leaves.
 */
final class ClusterQueue {
  /** Where a comparison stands: its turn ({@code position} 0) or behind {@code holder}. */
  record Place(int position, ResourceID holder) {
    boolean mayStart() {
      return position == 0;
    }
  }

  private record Entry(Instant arrival, ResourceID id, boolean active) {}

  private static final Comparator<Entry> ORDER = Comparator.comparing((Entry e) -> !e.active())
      .thenComparing(Entry::arrival).thenComparing(e -> e.id().toString());

  private final Map<String, TreeSet<Entry>> queues = new HashMap<>();
  private final Map<ResourceID, Entry> entries = new HashMap<>();
  private final Map<ResourceID, String> clusterOf = new HashMap<>();
  private final Consumer<ResourceID> wake;

  /** @param wake called for a comparison whose place changed because another left the queue */
  ClusterQueue(Consumer<ResourceID> wake) {
    this.wake = wake;
  }

  /**
   * Records that {@code id} (created at {@code arrival}) wants {@code cluster}; {@code active}
   * when it already has a run there. Returns its place: an active comparison is always first.
   */
  synchronized Place want(String cluster, ResourceID id, Instant arrival, boolean active) {
    String old = clusterOf.get(id);
    if (old != null && !old.equals(cluster)) {
      leave(id);
    }
    Entry previous = entries.get(id);
    TreeSet<Entry> queue = queues.computeIfAbsent(cluster, c -> new TreeSet<>(ORDER));
    if (previous != null) {
      queue.remove(previous);
    }
    Entry entry = new Entry(arrival, id, active || (previous != null && previous.active()));
    queue.add(entry);
    Place place = place(queue, entry);
    if (place.mayStart() && !entry.active()) {
      // Its turn: it starts now, so an earlier-created comparison that asks later waits for it.
      queue.remove(entry);
      entry = new Entry(arrival, id, true);
      queue.add(entry);
    }
    entries.put(id, entry);
    clusterOf.put(id, cluster);
    return place;
  }

  /** {@code id} needs the cluster no more (finished, suspended, deleted): the next one is woken. */
  void leave(ResourceID id) {
    List<ResourceID> toWake = new ArrayList<>();
    synchronized (this) {
      Entry entry = entries.remove(id);
      String cluster = clusterOf.remove(id);
      if (entry == null || cluster == null) {
        return;
      }
      TreeSet<Entry> queue = queues.get(cluster);
      queue.remove(entry);
      queue.forEach(e -> toWake.add(e.id()));
      if (queue.isEmpty()) {
        queues.remove(cluster);
      }
    }
    toWake.forEach(wake);
  }

  /** The place of {@code id}, if it is queued. */
  synchronized Optional<Place> placeOf(ResourceID id) {
    Entry entry = entries.get(id);
    return entry == null ? Optional.empty() : Optional.of(place(queues.get(clusterOf.get(id)), entry));
  }

  private static Place place(TreeSet<Entry> queue, Entry entry) {
    Entry first = queue.first();
    if (first.equals(entry)) {
      return new Place(0, null);
    }
    return new Place(queue.headSet(entry).size(), first.id());
  }
}
