package dev.srt.operator.emulator;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * A bounded set of chained block hashes with least-recently-used eviction. The engine uses one as
 * its prefix (radix) cache; the routers keep one per worker as their approximate picture of what
 * that worker has cached. A lookup touches the blocks it matches, so a shared prefix stays
 * resident while its tails are evicted first, as in a radix tree.
 */
public final class PrefixCache {
  private final int capacityBlocks;
  private final LinkedHashMap<Long, Boolean> blocks;

  public PrefixCache(int capacityBlocks) {
    this(capacityBlocks, evicted -> { });
  }

  /** {@code onEvict} hears of each block evicted to make room (not of {@link #clear()}), under this cache's lock. */
  public PrefixCache(int capacityBlocks, LongConsumer onEvict) {
    if (capacityBlocks < 1) {
      throw new IllegalArgumentException("cache capacity must be at least one block");
    }
    this.capacityBlocks = capacityBlocks;
    this.blocks = new LinkedHashMap<>(256, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
        boolean evict = size() > PrefixCache.this.capacityBlocks;
        if (evict) {
          onEvict.accept(eldest.getKey());
        }
        return evict;
      }
    };
  }

  /** Number of leading blocks of {@code chain} that are cached. */
  public synchronized int match(long[] chain) {
    int n = 0;
    while (n < chain.length && blocks.get(chain[n]) != null) {
      n++;
    }
    return n;
  }

  public synchronized void insert(long[] chain) {
    for (long h : chain) {
      blocks.put(h, Boolean.TRUE);
    }
  }

  public synchronized int size() {
    return blocks.size();
  }

  public synchronized void clear() {
    blocks.clear();
  }

  public int capacityBlocks() {
    return capacityBlocks;
  }
}
