package dev.srt.operator.emulator;

import java.util.List;

/**
 * Token ids for the emulated tokenizer's words ({@link ChatPrompt}): what the engine caches and
 * names in its KV events for a prompt that arrives as text. A word's id is a stable function of
 * the word, so equal prompts give equal ids in every engine and run; ids stay below 2^31 (SGLang
 * hashes them as {@code uint32}). Prompts that arrive tokenized (the gRPC {@code Generate} RPC)
 * carry their ids and do not come here.
 */
final class PromptTokenIds {
  /** Ids start above the range tokenizers give their special tokens. */
  private static final int FIRST = 1_000;
  private static final int SPAN = 1 << 30;

  private PromptTokenIds() {}

  static int[] of(List<String> words) {
    int[] ids = new int[words.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = FIRST + Math.floorMod(words.get(i).hashCode() * 0x9E3779B1, SPAN);
    }
    return ids;
  }
}
