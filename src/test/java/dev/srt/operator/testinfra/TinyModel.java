package dev.srt.operator.testinfra;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model directory of the project's own for real programs that read a model's files but no
 * weights (Dynamo's {@code mocker} and frontend): {@code config.json}, a word-level
 * {@code tokenizer.json} (Hugging Face {@code tokenizers} format, no download), a
 * {@code tokenizer_config.json} with a chat template, and {@code generation_config.json}.
 *
 * <p>The vocabulary is {@link #WORDS} (prompts written from them tokenize one token per word) and
 * then {@code w<N>} fillers up to {@link #VOCAB_SIZE}: Dynamo 1.6.1's mocker emits random token
 * ids in the low thousands, which must decode to text or the frontend answers with empty content.
 */
public final class TinyModel {
  public static final List<String> SPECIAL = List.of("<unk>", "<s>", "</s>", "<|user|>", "<|assistant|>", "<|system|>");
  /** Words prompts can be written from. */
  public static final List<String> WORDS = List.of(("the a an of to and in is it that for on with as was at by be this from or are "
      + "have not but had his they you were her she which one all we there can been has more if will would who their so what "
      + "when up out about into them some could him than time only other then these now its may two like my first over new "
      + "any very after most also made well way our many down should because where through each much good just those how "
      + "such long own see same here get use make day few find even back give still between life work last never under year "
      + "must might while great old too three both ever know little world house part place right end again off take come "
      + "thing think look ask play small large high point hand word question answer story river city").split(" "));
  public static final int VOCAB_SIZE = 32_000;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHAT_TEMPLATE = "{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} {% endfor %}"
      + "{% if add_generation_prompt %}<|assistant|> {% endif %}";

  private TinyModel() {}

  /** Writes the model's files into {@code dir} (created) and returns it. */
  public static Path write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Map<String, Integer> vocab = new LinkedHashMap<>();
    SPECIAL.forEach(t -> vocab.putIfAbsent(t, vocab.size()));
    WORDS.forEach(w -> vocab.putIfAbsent(w, vocab.size()));
    for (int i = 0; vocab.size() < VOCAB_SIZE; i++) {
      vocab.putIfAbsent("w" + i, vocab.size());
    }
    JSON.writeValue(dir.resolve("tokenizer.json").toFile(), tokenizer(vocab));

    ObjectNode tokenizerConfig = JSON.createObjectNode().put("bos_token", "<s>").put("eos_token", "</s>").put("unk_token", "<unk>")
        .put("model_max_length", 8192).put("tokenizer_class", "PreTrainedTokenizerFast").put("chat_template", CHAT_TEMPLATE);
    JSON.writeValue(dir.resolve("tokenizer_config.json").toFile(), tokenizerConfig);

    // Small sizes: the mocker derives its KV bytes per token from them (layers x 2 x heads x head dim).
    ObjectNode config = JSON.createObjectNode().put("model_type", "llama").put("vocab_size", vocab.size()).put("hidden_size", 64)
        .put("num_hidden_layers", 2).put("num_attention_heads", 4).put("num_key_value_heads", 4).put("intermediate_size", 128)
        .put("max_position_embeddings", 8192).put("bos_token_id", vocab.get("<s>")).put("eos_token_id", vocab.get("</s>"))
        .put("torch_dtype", "bfloat16");
    config.putArray("architectures").add("LlamaForCausalLM");
    JSON.writeValue(dir.resolve("config.json").toFile(), config);
    JSON.writeValue(dir.resolve("generation_config.json").toFile(),
        JSON.createObjectNode().put("bos_token_id", vocab.get("<s>")).put("eos_token_id", vocab.get("</s>")));
    return dir;
  }

  /** A prompt of {@code words} words of {@link #WORDS}, the same for the same seed. */
  public static String prompt(int seed, int words) {
    StringBuilder out = new StringBuilder();
    java.util.Random random = new java.util.Random(seed);
    for (int i = 0; i < words; i++) {
      out.append(i == 0 ? "" : " ").append(WORDS.get(random.nextInt(WORDS.size())));
    }
    return out.toString();
  }

  private static ObjectNode tokenizer(Map<String, Integer> vocab) {
    ObjectNode t = JSON.createObjectNode().put("version", "1.0");
    t.putNull("truncation");
    t.putNull("padding");
    ArrayNode added = t.putArray("added_tokens");
    for (String s : SPECIAL) {
      added.addObject().put("id", vocab.get(s)).put("content", s).put("single_word", false).put("lstrip", false)
          .put("rstrip", false).put("normalized", false).put("special", true);
    }
    t.putNull("normalizer");
    t.putObject("pre_tokenizer").put("type", "Whitespace");
    t.putNull("post_processor");
    t.putNull("decoder");
    ObjectNode model = t.putObject("model").put("type", "WordLevel").put("unk_token", "<unk>");
    ObjectNode v = model.putObject("vocab");
    vocab.forEach(v::put);
    return t;
  }
}
