package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The emulated chat template and tokenizer: each message becomes a role marker followed by the
 * whitespace-separated words of its text, and a final assistant marker opens the reply. Engines
 * and routers share it, so the routers' block hashes line up with the engines' cache exactly as
 * they do when the real router renders with the model's own template.
 */
public final class ChatPrompt {
  private ChatPrompt() {}

  public static List<String> tokens(JsonNode messages) {
    List<String> tokens = new ArrayList<>();
    if (messages != null && messages.isArray()) {
      for (JsonNode m : messages) {
        words(EmulatedVocabulary.roleMarker(m.path("role").asText("user")), tokens);
        words(text(m.path("content")), tokens);
      }
    }
    tokens.add(EmulatedVocabulary.roleMarker("assistant"));
    return tokens;
  }

  /** The text of the last user message: what the deterministic reply answers. */
  public static String lastUserText(JsonNode messages) {
    String last = "";
    if (messages != null && messages.isArray()) {
      for (JsonNode m : messages) {
        if ("user".equals(m.path("role").asText())) {
          last = text(m.path("content"));
        }
      }
    }
    return last;
  }

  /** Content is a string or, in the OpenAI multi-part form, an array of {type: text, text}. */
  static String text(JsonNode content) {
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder sb = new StringBuilder();
    if (content.isArray()) {
      for (JsonNode part : content) {
        if (part.has("text")) {
          sb.append(part.get("text").asText()).append(' ');
        }
      }
    }
    return sb.toString();
  }

  /** The tokens of {@code text} (whole words of the vocabulary, pieces of others), appended to {@code into}. */
  public static void words(String text, List<String> into) {
    EmulatedTokenizer.tokens(text, into);
  }

  /** How many tokens {@code text} is: what the engine and the clients count. */
  public static int countWords(String text) {
    return EmulatedTokenizer.count(text);
  }
}
