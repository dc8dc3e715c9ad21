package dev.srt.operator.emulator;

import java.util.List;

/**
 * Token ids of a prompt that arrives as text ({@link ChatPrompt}, already split into the emulated
 * tokenizer's tokens): what the engine caches and names in its KV events, the ids of the emulated
 * model's {@code tokenizer.json} ({@link EmulatedTokenizer}), so that a real router or sidecar that
 * tokenizes the same text with those files computes the same page hashes. Prompts that arrive
 * tokenized (the gRPC {@code Generate} RPC) carry their ids and do not come here.
 */
final class PromptTokenIds {
  private PromptTokenIds() {}

  static int[] of(List<String> tokens) {
    return tokens.stream().mapToInt(EmulatedTokenizer::id).toArray();
  }
}
