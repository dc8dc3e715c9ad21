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
        tokens.add("<|" + m.path("role").asText("user") + "|>");
        words(text(m.path("content")), tokens);
      }
    }
    tokens.add("<|assistant|>");
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

  public static void words(String text, List<String> into) {
    int n = text.length();
    int i = 0;
    while (i < n) {
      while (i < n && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && !Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      if (i > start) {
        into.add(text.substring(start, i));
      }
    }
  }

  public static int countWords(String text) {
    List<String> w = new ArrayList<>();
    words(text, w);
    return w.size();
  }
}
