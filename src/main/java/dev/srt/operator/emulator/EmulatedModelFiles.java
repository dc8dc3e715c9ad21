package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files of the emulated model's directory that clients read — {@code tokenizer.json},
 * {@code tokenizer_config.json} and {@code config.json}, no weights — generated from
 * {@link EmulatedVocabulary} (nothing downloaded). {@code transformers.AutoTokenizer} loads the
 * directory as a {@code PreTrainedTokenizerFast} that tokenizes as {@link EmulatedTokenizer}, so a
 * real AIPerf pointed at it with {@code --tokenizer DIR} counts the tokens the emulated engines
 * count. The bytes are the same on every machine: runs hash these files ({@code facts.json}).
 */
public final class EmulatedModelFiles {
  public static final String TOKENIZER = "tokenizer.json";
  public static final String TOKENIZER_CONFIG = "tokenizer_config.json";
  public static final String CONFIG = "config.json";
  /** The context length the emulated engine reports ({@code max_model_len} of {@code /v1/models}). */
  static final int CONTEXT_LENGTH = 40960;
  /**
   * The emulated chat template as Jinja, rendering what {@link ChatPrompt} tokenizes: each message
   * as its role marker and its text (the texts of a multi-part content, in order), whitespace
   * between, then the assistant marker that opens the reply.
   */
  static final String CHAT_TEMPLATE = "{% for message in messages %}<|{{ message['role'] }}|> "
      + "{% if message['content'] is string %}{{ message['content'] }}{% else %}{% for part in message['content'] %}"
      + "{% if part['text'] is defined %}{{ part['text'] }} {% endif %}{% endfor %}{% endif %} {% endfor %}"
      + "{% if add_generation_prompt %}<|assistant|>{% endif %}";

  private EmulatedModelFiles() {}

  /** The files by name, as written. */
  public static Map<String, byte[]> contents() {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put(TOKENIZER, bytes(tokenizer()));
    files.put(TOKENIZER_CONFIG, bytes(tokenizerConfig()));
    files.put(CONFIG, bytes(config()));
    return files;
  }

  /**
   * Writes the files into {@code dir} (created if missing), each replaced atomically and only when
   * its content differs: engines of one host may write the same directory at once.
   */
  public static void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (Map.Entry<String, byte[]> f : contents().entrySet()) {
      Path target = dir.resolve(f.getKey());
      if (Files.isRegularFile(target) && Arrays.equals(Files.readAllBytes(target), f.getValue())) {
        continue;
      }
      Path tmp = Files.createTempFile(dir, "." + f.getKey(), ".tmp");
      try {
        Files.write(tmp, f.getValue());
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
  }

  private static byte[] bytes(ObjectNode json) {
    try {
      return (Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Hugging Face tokenizers' serialization (version 1.0) of a WordPiece model over whitespace-split words. */
  static ObjectNode tokenizer() {
    ObjectNode t = Json.object();
    t.put("version", "1.0").putNull("truncation").putNull("padding");
    t.putArray("added_tokens").add(unknownToken().put("id", 0));
    t.putNull("normalizer");
    t.putObject("pre_tokenizer").put("type", "WhitespaceSplit");
    t.putNull("post_processor");
    // cleanup off: decoding must give back the text as it was, never re-spaced around punctuation
    t.putObject("decoder").put("type", "WordPiece").put("prefix", EmulatedVocabulary.CONTINUATION).put("cleanup", false);
    ObjectNode model = t.putObject("model");
    model.put("type", "WordPiece").put("unk_token", EmulatedVocabulary.UNKNOWN)
        .put("continuing_subword_prefix", EmulatedVocabulary.CONTINUATION)
        .put("max_input_chars_per_word", EmulatedTokenizer.MAX_CHARS_PER_WORD);
    ObjectNode vocab = model.putObject("vocab");
    List<String> tokens = EmulatedVocabulary.tokens();
    for (int i = 0; i < tokens.size(); i++) {
      vocab.put(tokens.get(i), i);
    }
    return t;
  }

  private static ObjectNode unknownToken() {
    ObjectNode u = Json.object();
    u.put("content", EmulatedVocabulary.UNKNOWN).put("single_word", false).put("lstrip", false).put("rstrip", false)
        .put("normalized", false).put("special", true);
    return u;
  }

  static ObjectNode tokenizerConfig() {
    ObjectNode c = Json.object();
    c.putObject("added_tokens_decoder").set("0", unknownToken());
    c.put("chat_template", CHAT_TEMPLATE).put("clean_up_tokenization_spaces", false).put("model_max_length", CONTEXT_LENGTH)
        .put("tokenizer_class", "PreTrainedTokenizerFast").put("unk_token", EmulatedVocabulary.UNKNOWN);
    return c;
  }

  /** No architecture a real engine could load: the emulated engines read no weights. */
  static ObjectNode config() {
    ObjectNode c = Json.object();
    c.putArray("architectures").add("SrtEmulatedForCausalLM");
    c.put("model_type", "srt-emulated").put("vocab_size", EmulatedVocabulary.tokens().size())
        .put("max_position_embeddings", CONTEXT_LENGTH);
    return c;
  }
}
