package dev.srt.operator.emulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The emulated engine's paged prefix cache over token ids, keyed by SGLang's page hashes
 * ({@link SglangPageHashes}), which tells a KV-event subscriber what it holds, as SGLang's radix
 * cache does: the pages a prompt adds ({@code BlockStored}, parent-linked, with their token ids),
 * the pages evicted to make room ({@code BlockRemoved}) and a flush ({@code AllBlocksCleared}).
 * Without a publisher it only caches.
 */
final class EngineKvCache implements AutoCloseable {
  private final int pageSize;
  private final KvEventPublisher publisher;
  private final List<Long> evicted = new ArrayList<>();
  private final PrefixCache pages;

  EngineKvCache(int capacityBlocks, int pageSize, KvEventPublisher publisher) {
    this.pageSize = pageSize;
    this.publisher = publisher;
    this.pages = new PrefixCache(capacityBlocks, evicted::add);
  }

  /**
   * Looks the prompt up and caches all of its whole pages; returns how many leading pages were
   * cached before.
   */
  synchronized int matchAndInsert(int[] tokenIds) {
    long[] chain = SglangPageHashes.chain(tokenIds, pageSize);
    int matched = pages.match(chain);
    insert(tokenIds, chain, matched);
    return matched;
  }

  /** Caches the prompt's whole pages (a decode engine's radix cache taking the transferred KV). */
  synchronized void insert(int[] tokenIds) {
    long[] chain = SglangPageHashes.chain(tokenIds, pageSize);
    insert(tokenIds, chain, pages.match(chain));
  }

  private void insert(int[] tokenIds, long[] chain, int matched) {
    pages.insert(chain);
    if (publisher == null) {
      evicted.clear();
      return;
    }
    List<KvEvent> batch = new ArrayList<>(2);
    if (matched < chain.length) {
      batch.add(new KvEvent.BlockStored(Arrays.copyOfRange(chain, matched, chain.length),
          matched == 0 ? null : chain[matched - 1],
          Arrays.copyOfRange(tokenIds, matched * pageSize, chain.length * pageSize), pageSize));
    }
    if (!evicted.isEmpty()) {
      batch.add(new KvEvent.BlockRemoved(evicted.stream().mapToLong(Long::longValue).toArray()));
      evicted.clear();
    }
    publisher.publish(batch);
  }

  synchronized void clear() {
    pages.clear();
    if (publisher != null) {
      publisher.publish(List.of(new KvEvent.AllBlocksCleared()));
    }
  }

  int size() {
    return pages.size();
  }

  int capacityBlocks() {
    return pages.capacityBlocks();
  }

  @Override
  public void close() {
    if (publisher != null) {
      publisher.close();
    }
  }
}
