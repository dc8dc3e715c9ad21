package dev.srt.operator.emulator;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The block hashes SGLang 0.5.21 (the version ai-dynamo 1.6.1's {@code [sglang]} extra pins) puts in
 * its KV events: one SHA-256 per page of {@code --page-size} token ids, over the previous page's
 * 32-byte digest (none for the first page) followed by the page's token ids as little-endian
 * {@code uint32}; an event carries the first 8 bytes of each digest as a big-endian signed
 * {@code int64}. Sources: {@code sglang/srt/mem_cache/cpp_utils/hash_binding.cpp} ({@code
 * hash_pages_to_hex_blob}) and {@code sglang/srt/mem_cache/utils.py} ({@code hash_str_to_int64}) of
 * the sglang 0.5.21 wheel. Only whole pages are hashed: the paged radix cache holds no partial page.
 */
public final class SglangPageHashes {
  private SglangPageHashes() {}

  /** The event hashes of the whole pages of {@code tokenIds}, root first. */
  public static long[] chain(int[] tokenIds, int pageSize) {
    if (pageSize < 1) {
      throw new IllegalArgumentException("page size must be at least 1, got " + pageSize);
    }
    long[] hashes = new long[tokenIds.length / pageSize];
    MessageDigest sha = sha256();
    ByteBuffer page = ByteBuffer.allocate(pageSize * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    byte[] prior = null;
    for (int p = 0; p < hashes.length; p++) {
      page.clear();
      for (int t = p * pageSize; t < (p + 1) * pageSize; t++) {
        page.putInt(tokenIds[t]); // a token id is a uint32: its bits, whatever Java's sign says
      }
      if (prior != null) {
        sha.update(prior);
      }
      sha.update(page.array(), 0, page.position());
      prior = sha.digest();
      hashes[p] = ByteBuffer.wrap(prior, 0, Long.BYTES).getLong();
    }
    return hashes;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
