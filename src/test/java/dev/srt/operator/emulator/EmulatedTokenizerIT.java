package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated model directory, loaded by the real {@code transformers.AutoTokenizer} of the
 * pinned environment, tokenizes exactly as {@link EmulatedTokenizer}: on edge cases, on AIPerf's own
 * prompt corpus, and through the chat template against {@link ChatPrompt}.
 */
class EmulatedTokenizerIT {
  @TempDir Path dir;

  private static final List<String> TEXTS = List.of("alpha bravo router cache", "Hello, world!  Reply with one word: ready",
      "tab\tand\nnewline\u00a0nbsp\u2003em-space", "a\u001fb", "caf\u00e9 \u2018quoted\u2019 \u4e2d\u6587 emoji\ud83d\ude00",
      "x".repeat(100) + " " + "y".repeat(101), "[UNK] ab[UNK]cd", "", "   ", "##x ## #", "<|user|> <|critic|>");

  @Test
  void realTransformersTokenizeAsTheEmulatorDoes() throws Exception {
    String python = RealProgramsEnv.bin("python");
    EmulatedModelFiles.write(dir.resolve("model"));
    ObjectNode req = Json.object();
    req.put("dir", dir.resolve("model").toString());
    TEXTS.forEach(req.putArray("texts")::add);
    ArrayNode conversations = req.putArray("conversations");
    conversations.add(Json.parse("[{\"role\":\"user\",\"content\":\"Reply with one word: ready\"}]"));
    conversations.add(Json.parse("[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":\"hello  there\"},"
        + "{\"role\":\"assistant\",\"content\":\"alpha\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"part one\"},"
        + "{\"type\":\"text\",\"text\":\"part two\"}]}]"));
    Path script = Path.of("src/test/resources/dev/srt/operator/emulator/hf_tokenize.py").toAbsolutePath();
    ProcessBuilder pb = new ProcessBuilder(python, script.toString());
    // a local directory: nothing to download, and nothing may be
    pb.environment().put("HF_HUB_OFFLINE", "1");
    Process p = pb.redirectError(dir.resolve("stderr").toFile())
        .redirectOutput(dir.resolve("stdout").toFile()).start();
    try (var in = p.getOutputStream()) {
      in.write(Json.write(req).getBytes(StandardCharsets.UTF_8));
    }
    try {
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(dir.resolve("stderr"))).isZero();
    } finally {
      p.destroyForcibly();
    }
    JsonNode out = Json.parse(Files.readAllBytes(dir.resolve("stdout")));

    for (int i = 0; i < TEXTS.size(); i++) {
      assertThat(ids(out.path("texts").get(i))).as("ids of %s", TEXTS.get(i)).containsExactly(EmulatedTokenizer.ids(TEXTS.get(i)));
    }
    // decoding gives back the words of a text of known characters, whitespace made single spaces
    assertThat(out.path("decoded").get(1).asText()).isEqualTo("Hello, world! Reply with one word: ready");
    JsonNode corpus = out.path("corpus");
    assertThat(corpus.size()).isGreaterThan(10);
    for (int i = 0; i < corpus.size(); i++) {
      assertThat(ids(corpus.get(i))).as("AIPerf corpus chunk %d", i).containsExactly(EmulatedTokenizer.ids(out.path("corpus_text").get(i).asText()));
    }
    for (int i = 0; i < conversations.size(); i++) {
      int[] expected = ChatPrompt.tokens(conversations.get(i)).stream().mapToInt(EmulatedTokenizer::id).toArray();
      assertThat(ids(out.path("chat").get(i))).as("chat template of conversation %d", i).containsExactly(expected);
    }
  }

  private static int[] ids(JsonNode list) {
    return StreamSupport.stream(list.spliterator(), false).mapToInt(JsonNode::asInt).toArray();
  }
}
