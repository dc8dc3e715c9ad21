package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The server arguments an emulated engine reports in {@code /server_info}, as SGLang reports its
 * {@code ServerArgs}: every argument it was started with under its field name ({@code --tp-size}
 * → {@code tp_size}), the flags the emulator uses with their defaults resolved (the tokenizer is
 * the model's, a random seed is drawn when none is given), and the flags it does not use with the
 * values they were given, typed as Python's argparse would leave them after SGLang's conversion
 * (numbers as numbers, a bare flag as {@code true}).
 */
final class ServerArgs {
  /** SGLang's range for a seed it draws itself ({@code random.randint(0, 1 << 30)}). */
  private static final int SEED_BOUND = 1 << 30;

  private ServerArgs() {}

  /** The given flags the emulator ignores, as server-args fields. */
  static ObjectNode others(Map<String, List<String>> ignored) {
    ObjectNode out = Json.object();
    ignored.forEach((flag, words) -> out.set(flag.replace('-', '_'), value(words)));
    return out;
  }

  /** {@code args} (the emulated flags' fields) with {@code others} beside them and a seed drawn unless one was given. */
  static ObjectNode resolve(ObjectNode args, ObjectNode others) {
    ObjectNode out = Json.object();
    out.setAll(others);
    out.setAll(args);
    if (!out.has("random_seed") || out.get("random_seed").isNull()) {
      out.put("random_seed", ThreadLocalRandom.current().nextInt(SEED_BOUND + 1));
    }
    return out;
  }

  private static JsonNode value(List<String> words) {
    if (words.isEmpty()) {
      return JsonNodeFactory.instance.booleanNode(true);
    }
    if (words.size() == 1) {
      return scalar(words.get(0));
    }
    var array = Json.array();
    words.forEach(w -> array.add(scalar(w)));
    return array;
  }

  private static JsonNode scalar(String word) {
    if (word.matches("-?[0-9]{1,18}")) {
      return JsonNodeFactory.instance.numberNode(Long.parseLong(word));
    }
    if (word.matches("-?[0-9]+\\.[0-9]+([eE][-+]?[0-9]+)?")) {
      return JsonNodeFactory.instance.numberNode(Double.parseDouble(word));
    }
    return JsonNodeFactory.instance.textNode(word);
  }
}
