package dev.srt.operator.emulator;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the emulated model says: the requested word for "Reply with one word: X" (the readiness
 * canary), otherwise words drawn from a small vocabulary seeded by the prompt, so equal prompts
 * get equal replies on every engine. With {@code ignore_eos} the reply always has exactly
 * {@code max_tokens} words, as benchmarks that fix the output length expect.
 */
public record DeterministicReply(List<String> words, String finishReason) {
  private static final Pattern ONE_WORD =
      Pattern.compile("(?i)reply with (?:one|a single) word\\s*:?\\s*\"?([\\p{Alnum}_-]+)");
  static final String[] VOCABULARY = (
      "the a router worker cache prefix block token request reply model engine latency "
          + "throughput batch queue decode prefill stream event policy load balance hit miss "
          + "fast slow warm cold shared group prompt answer value state node path hash tree "
          + "first next last more less time step run test data rate mean flow sync async")
      .split(" ");

  public static DeterministicReply answer(String lastUserText, List<String> promptTokens, int maxTokens, boolean ignoreEos) {
    if (maxTokens <= 0) {
      return new DeterministicReply(List.of(), "length");
    }
    long seed = promptTokens.hashCode();
    List<String> words = new ArrayList<>();
    Matcher m = ONE_WORD.matcher(lastUserText);
    if (m.find()) {
      words.add(m.group(1).toLowerCase(java.util.Locale.ROOT));
    }
    int natural = words.isEmpty() ? 8 + Math.floorMod(seed, 24) : 1;
    int length = ignoreEos ? maxTokens : Math.min(maxTokens, natural);
    long state = seed;
    while (words.size() < length) {
      state = state * 6364136223846793005L + 1442695040888963407L;
      words.add(VOCABULARY[Math.floorMod(state >>> 33, VOCABULARY.length)]);
    }
    return new DeterministicReply(List.copyOf(words), length < natural || ignoreEos ? "length" : "stop");
  }

  public String text() {
    return String.join(" ", words);
  }
}
