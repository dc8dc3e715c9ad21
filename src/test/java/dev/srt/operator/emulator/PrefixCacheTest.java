package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrefixCacheTest {
  private static List<String> words(String prefix, int n) {
    List<String> w = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      w.add(prefix + i);
    }
    return w;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  @Test
  void hashesOnlyFullBlocksAndEqualPrefixesGiveEqualHashes() {
    List<String> shared = words("s", 32);
    long[] a = BlockHasher.chain(concat(shared, words("a", 20)), 16);
    long[] b = BlockHasher.chain(concat(shared, words("b", 20)), 16);
    assertThat(a).hasSize(3);
    assertThat(a[0]).isEqualTo(b[0]);
    assertThat(a[1]).isEqualTo(b[1]);
    assertThat(a[2]).isNotEqualTo(b[2]);
  }

  @Test
  void aBlockHashCoversEverythingBeforeIt() {
    long[] a = BlockHasher.chain(concat(words("x", 16), words("same", 16)), 16);
    long[] b = BlockHasher.chain(concat(words("y", 16), words("same", 16)), 16);
    assertThat(a[1]).isNotEqualTo(b[1]);
  }

  @Test
  void matchesTheLongestCachedPrefix() {
    PrefixCache cache = new PrefixCache(100);
    List<String> shared = words("s", 48);
    cache.insert(BlockHasher.chain(concat(shared, words("q1", 16)), 16));
    assertThat(cache.match(BlockHasher.chain(concat(shared, words("q2", 16)), 16))).isEqualTo(3);
    assertThat(cache.match(BlockHasher.chain(words("other", 64), 16))).isZero();
  }

  @Test
  void evictsLeastRecentlyUsedBlocksAndKeepsAPrefixThatIsStillInUse() {
    PrefixCache cache = new PrefixCache(4);
    List<String> system = words("sys", 32);
    cache.insert(BlockHasher.chain(concat(system, words("a", 16)), 16));
    cache.match(BlockHasher.chain(system, 16));
    cache.insert(BlockHasher.chain(words("other", 32), 16));
    assertThat(cache.size()).isEqualTo(4);
    assertThat(cache.match(BlockHasher.chain(system, 16))).isEqualTo(2);
    assertThat(cache.match(BlockHasher.chain(concat(system, words("a", 16)), 16))).isEqualTo(2);
  }

  @Test
  void clearForgetsEverything() {
    PrefixCache cache = new PrefixCache(10);
    long[] chain = BlockHasher.chain(words("w", 32), 16);
    cache.insert(chain);
    cache.clear();
    assertThat(cache.match(chain)).isZero();
  }
}
