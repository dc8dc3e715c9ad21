package dev.srt.operator.emulator;

import java.util.List;

/**
 * Chained block hashes over a token sequence, as the KV-aware routers and the engine's paged
 * radix cache see it: block {@code i} covers tokens {@code [i*size, (i+1)*size)} and its hash
 * covers every token before it too, so equal hashes mean equal prefixes. Partial trailing blocks
 * are never cached.
 */
public final class BlockHasher {
  private BlockHasher() {}

  public static long[] chain(List<String> tokens, int blockSize) {
    if (blockSize < 1) {
      throw new IllegalArgumentException("block size must be at least 1, got " + blockSize);
    }
    long[] hashes = new long[tokens.size() / blockSize];
    long h = 0x9E3779B97F4A7C15L;
    for (int b = 0; b < hashes.length; b++) {
      for (int t = b * blockSize; t < (b + 1) * blockSize; t++) {
        h = mix(h ^ tokens.get(t).hashCode());
      }
      hashes[b] = h;
    }
    return hashes;
  }

  /** SplitMix64's finalizer: cheap and spreads 32-bit word hashes over all 64 bits. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
