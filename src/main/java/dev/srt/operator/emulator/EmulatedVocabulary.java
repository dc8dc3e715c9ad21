package dev.srt.operator.emulator;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The emulated model's vocabulary, in id order: the unknown token, the chat template's role
 * markers, whole words (the emulator's own prompt and reply words, common English words, each also
 * capitalised), then every character it knows alone and as a {@code ##} continuation. The
 * characters let any word of those characters be spelled (a word-piece tokenizer's fallback),
 * so real clients' prompts (AIPerf's Shakespeare corpus) keep their text, while the emulator's own
 * words stay one token each: a reply of N words is N tokens to the engine and to the client.
 * Nothing here may be reordered without changing every id, and so the tokenizer's hash.
 */
public final class EmulatedVocabulary {
  public static final String UNKNOWN = "[UNK]";
  public static final String CONTINUATION = "##";
  /** Role markers the chat template writes before each message; unknown roles are spelled out. */
  static final List<String> ROLES = List.of("system", "user", "assistant", "tool", "developer");
  /** Common English words, so that prose (AIPerf's corpus) is mostly whole-word tokens. */
  private static final String COMMON = String.join(" ",
      "the of and to in is you that it he was for on are as with his they at be this have from or one had by",
      "word but not what all were we when your can said there use an each which she do how their if will up",
      "other about out many then them these so some her would make like him into time has look two more write",
      "go see number no way could people my than first water been call who oil its now find long down day did",
      "get come made may part over new sound take only little work know place year live me back give most very",
      "after thing our just name good sentence man think say great where help through much before line right",
      "too mean old any same tell boy follow came want show also around form three small set put end does",
      "another well large must big even such because turn here why ask went men read need land different home",
      "us move try kind hand picture again change off play spell air away animal house point page letter mother",
      "answer found study still learn should world high every near add food between own below country plant",
      "last school father keep tree never start city earth eye light thought head under story saw left few",
      "while along might close something seem next hard open example begin life always those both paper together",
      "got often run important until children side feet car mile night walk white sea began grow took river",
      "four carry once book hear stop without second late miss idea enough eat face watch far really almost let",
      "above girl sometimes mountain cut young talk soon list song being leave family love heart death king",
      "lord sir lady thou thee thy thine hath doth art shall upon o nor yet am mine love sweet fair beauty eyes",
      "reply question hello hi please thank thanks yes ok okay ready");

  private static final List<String> TOKENS = build();

  private EmulatedVocabulary() {}

  /** Every token, its id being its index. */
  public static List<String> tokens() {
    return TOKENS;
  }

  private static List<String> build() {
    Set<String> t = new LinkedHashSet<>();
    t.add(UNKNOWN);
    ROLES.forEach(r -> t.add(roleMarker(r)));
    List<String> words = new ArrayList<>(List.of(BenchWorkload.WORDS));
    words.addAll(List.of(DeterministicReply.VOCABULARY));
    words.addAll(List.of(COMMON.split(" ")));
    t.addAll(words);
    words.forEach(w -> t.add(w.substring(0, 1).toUpperCase(Locale.ROOT) + w.substring(1)));
    List<String> chars = characters();
    t.addAll(chars);
    chars.forEach(c -> t.add(CONTINUATION + c));
    return List.copyOf(t);
  }

  static String roleMarker(String role) {
    return "<|" + role + "|>";
  }

  /**
   * The characters a word may be spelled with: printable ASCII, the Latin-1 supplement and a few
   * typographic marks. A word with any other character becomes {@link #UNKNOWN} as a whole.
   */
  private static List<String> characters() {
    List<String> out = new ArrayList<>();
    for (int c = 0x21; c <= 0x7e; c++) {
      out.add(Character.toString(c));
    }
    for (int c = 0xa1; c <= 0xff; c++) {
      out.add(Character.toString(c));
    }
    for (int c : new int[] {0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2026, 0x20ac, 0x2122}) {
      out.add(Character.toString(c));
    }
    return out;
  }
}
