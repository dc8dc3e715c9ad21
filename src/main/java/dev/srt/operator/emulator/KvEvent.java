package dev.srt.operator.emulator;

import java.io.IOException;
import org.msgpack.core.MessagePacker;

/**
 * One KV-cache event as SGLang 0.5.21 encodes it ({@code sglang/srt/disaggregation/kv_events.py}):
 * a msgspec struct with {@code tag=True} and {@code omit_defaults=True}, so a msgpack map whose
 * first key {@code type} names the class, then the fields in declaration order; optional fields
 * left at their default ({@code cache_salt}, {@code session_id}) are omitted, fields without a
 * default ({@code parent_block_hash}, {@code lora_id}) are written even when nil. The engine's
 * events always come from its GPU tier ({@code medium "GPU"}, {@code StorageMedium.GPU}).
 */
sealed interface KvEvent {
  String GPU = "GPU";

  void write(MessagePacker out) throws IOException;

  /** Pages that became resident, parent-linked: the first page's parent is {@code parentBlockHash}. */
  record BlockStored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize) implements KvEvent {
    @Override
    public void write(MessagePacker out) throws IOException {
      out.packMapHeader(7);
      out.packString("type").packString("BlockStored");
      out.packString("block_hashes");
      longs(out, blockHashes);
      out.packString("parent_block_hash");
      if (parentBlockHash == null) {
        out.packNil();
      } else {
        out.packLong(parentBlockHash);
      }
      out.packString("token_ids").packArrayHeader(tokenIds.length);
      for (int id : tokenIds) {
        out.packLong(Integer.toUnsignedLong(id));
      }
      out.packString("block_size").packInt(blockSize);
      out.packString("lora_id").packNil();
      out.packString("medium").packString(GPU);
    }
  }

  /** Pages evicted from the cache. */
  record BlockRemoved(long[] blockHashes) implements KvEvent {
    @Override
    public void write(MessagePacker out) throws IOException {
      out.packMapHeader(3);
      out.packString("type").packString("BlockRemoved");
      out.packString("block_hashes");
      longs(out, blockHashes);
      out.packString("medium").packString(GPU);
    }
  }

  /** The whole cache was flushed. */
  record AllBlocksCleared() implements KvEvent {
    @Override
    public void write(MessagePacker out) throws IOException {
      out.packMapHeader(1);
      out.packString("type").packString("AllBlocksCleared");
    }
  }

  private static void longs(MessagePacker out, long[] values) throws IOException {
    out.packArrayHeader(values.length);
    for (long v : values) {
      out.packLong(v);
    }
  }
}
