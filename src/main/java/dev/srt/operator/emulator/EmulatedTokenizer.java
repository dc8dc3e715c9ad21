package dev.srt.operator.emulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The emulated model's tokenizer, the one {@link EmulatedModelFiles} writes as {@code tokenizer.json}
 * for the real clients: Hugging Face's {@code WhitespaceSplit} pre-tokenizer (words end at Unicode
 * {@code White_Space}) and {@code WordPiece} model (greedy longest match from the word's start,
 * {@code ##} before pieces that continue a word, a word with a character outside the vocabulary
 * or longer than {@value #MAX_CHARS_PER_WORD} characters is {@code [UNK]}), as the tokenizers 0.23.3
 * of the pinned environment implements them ({@code EmulatedTokenizerIT} compares the two on
 * AIPerf's own corpus). Engines and routers count and cache these tokens, so what AIPerf counts
 * in a prompt is what the engine prefilled.
 */
public final class EmulatedTokenizer {
  static final int MAX_CHARS_PER_WORD = 100;
  private static final Map<String, Integer> IDS = ids();

  private EmulatedTokenizer() {}

  private static Map<String, Integer> ids() {
    Map<String, Integer> ids = new HashMap<>();
    List<String> tokens = EmulatedVocabulary.tokens();
    for (int i = 0; i < tokens.size(); i++) {
      ids.put(tokens.get(i), i);
    }
    return ids;
  }

  /**
   * The tokens of {@code text}, appended to {@code into}. {@code [UNK]} is an added (special)
   * token, which Hugging Face's tokenizers find in the text before splitting it into words, even
   * inside a word: the text around each occurrence is tokenized on its own.
   */
  public static void tokens(String text, List<String> into) {
    int from = 0;
    for (int at; (at = text.indexOf(EmulatedVocabulary.UNKNOWN, from)) >= 0; from = at + EmulatedVocabulary.UNKNOWN.length()) {
      words(text.substring(from, at), into);
      into.add(EmulatedVocabulary.UNKNOWN);
    }
    words(text.substring(from), into);
  }

  private static void words(String text, List<String> into) {
    int n = text.length();
    int i = 0;
    while (i < n) {
      while (i < n && isWhiteSpace(text.codePointAt(i))) {
        i += Character.charCount(text.codePointAt(i));
      }
      int start = i;
      while (i < n && !isWhiteSpace(text.codePointAt(i))) {
        i += Character.charCount(text.codePointAt(i));
      }
      if (i > start) {
        word(text.substring(start, i), into);
      }
    }
  }

  public static List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    tokens(text, out);
    return out;
  }

  public static int count(String text) {
    return tokens(text).size();
  }

  /** The token's id in {@code tokenizer.json}. */
  public static int id(String token) {
    Integer id = IDS.get(token);
    if (id == null) {
      throw new IllegalArgumentException("not a token of the emulated vocabulary: " + token);
    }
    return id;
  }

  public static int[] ids(String text) {
    return tokens(text).stream().mapToInt(EmulatedTokenizer::id).toArray();
  }

  private static void word(String word, List<String> into) {
    int[] cps = word.codePoints().toArray();
    if (cps.length > MAX_CHARS_PER_WORD) {
      into.add(EmulatedVocabulary.UNKNOWN);
      return;
    }
    List<String> pieces = new ArrayList<>();
    int start = 0;
    while (start < cps.length) {
      String found = null;
      int end = cps.length;
      for (; end > start; end--) {
        String piece = new String(cps, start, end - start);
        piece = start > 0 ? EmulatedVocabulary.CONTINUATION + piece : piece;
        if (IDS.containsKey(piece)) {
          found = piece;
          break;
        }
      }
      if (found == null) {
        into.add(EmulatedVocabulary.UNKNOWN);
        return;
      }
      pieces.add(found);
      start = end;
    }
    into.addAll(pieces);
  }

  /** Unicode's {@code White_Space} property, which Rust's {@code char::is_whitespace} tests (Java's own tests differ). */
  static boolean isWhiteSpace(int c) {
    return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a)
        || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
  }
}
