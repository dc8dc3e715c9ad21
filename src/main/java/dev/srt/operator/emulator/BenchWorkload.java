package dev.srt.operator.emulator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * bench_serving's synthetic datasets, deterministic from {@code --seed}: {@code random} (uniform
 * lengths between {@code ratio * len} and {@code len}) and {@code generated-shared-prefix} (groups
 * of prompts that share a system prompt, shuffled unless {@code --gsp-ordered}). Prompt lengths
 * are counted in words, the emulated tokenizer's tokens.
 */
public final class BenchWorkload {
  /** One request to send: its text, its length in tokens, and the output length to ask for. */
  public record Prompt(String text, int promptLen, int outputLen) {}

  static final String[] WORDS = (
      "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
          + "quebec romeo sierra tango uniform victor whiskey xray yankee zulu amber basalt cobalt dune ember "
          + "fjord granite harbor iris jasper kelp lagoon meadow nectar onyx pebble quartz river summit tundra "
          + "umber valley willow xenon yarrow zephyr anchor beacon canyon drift estuary forest glacier horizon "
          + "island jungle knoll ledge mesa oasis prairie reef savanna thicket upland vista wetland")
      .split(" ");

  private BenchWorkload() {}

  public static List<Prompt> random(int numPrompts, int inputLen, int outputLen, double rangeRatio, long seed) {
    Random r = new Random(seed);
    List<Prompt> out = new ArrayList<>(numPrompts);
    for (int i = 0; i < numPrompts; i++) {
      int in = between(r, inputLen, rangeRatio);
      int o = between(r, outputLen, rangeRatio);
      out.add(new Prompt(words(r, in), in, o));
    }
    return out;
  }

  public static List<Prompt> sharedPrefix(int groups, int perGroup, int systemLen, int questionLen, int outputLen,
      boolean ordered, long seed) {
    Random r = new Random(seed);
    List<Prompt> out = new ArrayList<>(groups * perGroup);
    for (int g = 0; g < groups; g++) {
      String system = words(r, systemLen);
      for (int q = 0; q < perGroup; q++) {
        String question = words(r, questionLen);
        out.add(new Prompt(system + "\n\n" + question, systemLen + questionLen, outputLen));
      }
    }
    if (!ordered) {
      Collections.shuffle(out, r);
    }
    return out;
  }

  private static int between(Random r, int len, double ratio) {
    int lo = Math.max(1, (int) Math.round(len * ratio));
    return len <= lo ? Math.max(1, len) : lo + r.nextInt(len - lo + 1);
  }

  static String words(Random r, int n) {
    StringBuilder sb = new StringBuilder(n * 7);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(WORDS[r.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }
}
