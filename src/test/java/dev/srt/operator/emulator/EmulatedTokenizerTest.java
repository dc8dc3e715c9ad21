package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmulatedTokenizerTest {
  @TempDir Path dir;

  @Test
  void theEmulatorsOwnWordsAreOneTokenEachAndOtherWordsAreSpelledInPieces() {
    assertThat(EmulatedTokenizer.tokens("alpha router Cache")).containsExactly("alpha", "router", "Cache");
    assertThat(EmulatedTokenizer.tokens("zzq")).containsExactly("z", "##z", "##q");
    // greedy longest match from the start of the word, then continuations
    assertThat(EmulatedTokenizer.tokens("routerx")).containsExactly("router", "##x");
    assertThat(EmulatedTokenizer.tokens("word:")).containsExactly("word", "##:");
  }

  @Test
  void wordsEndAtUnicodeWhiteSpaceOnly() {
    // U+00A0 separates words (Rust's char::is_whitespace), U+001F does not (Java's isWhitespace would split there)
    assertThat(EmulatedTokenizer.tokens("alpha\u00a0bravo\n\tcharlie")).containsExactly("alpha", "bravo", "charlie");
    assertThat(EmulatedTokenizer.tokens("a\u001fb")).containsExactly(EmulatedVocabulary.UNKNOWN);
  }

  @Test
  void aWordWithAnUnknownCharacterOrTooLongIsOneUnknownToken() {
    assertThat(EmulatedTokenizer.tokens("alpha b\u4e2dc delta")).containsExactly("alpha", "[UNK]", "delta");
    assertThat(EmulatedTokenizer.tokens("x".repeat(101))).containsExactly("[UNK]");
    assertThat(EmulatedTokenizer.tokens("x".repeat(100))).hasSize(100);
    // [UNK] written in the text is the added token, found even inside a word
    assertThat(EmulatedTokenizer.tokens("alpha[UNK]zz [UNK]")).containsExactly("alpha", "[UNK]", "z", "##z", "[UNK]");
  }

  @Test
  void idsAreVocabularyPositionsAndTheUnknownTokenIsZero() {
    List<String> vocab = EmulatedVocabulary.tokens();
    assertThat(vocab.get(0)).isEqualTo("[UNK]");
    assertThat(vocab).doesNotHaveDuplicates();
    assertThat(EmulatedTokenizer.ids("alpha zz")).containsExactly(vocab.indexOf("alpha"), vocab.indexOf("z"), vocab.indexOf("##z"));
  }

  @Test
  void theChatPromptIsTokenizedAsTheTemplateRendersIt() {
    JsonNode messages = Json.parse("[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"alpha\"}]}]");
    assertThat(ChatPrompt.tokens(messages)).containsExactly("<|system|>", "be", "b", "##r", "##i", "##e", "##f", "<|user|>", "alpha",
        "<|assistant|>");
    // a role the vocabulary lacks is spelled out, as the template's text would be
    assertThat(ChatPrompt.tokens(Json.parse("[{\"role\":\"critic\",\"content\":\"x\"}]")).get(0)).isEqualTo("<");
  }

  @Test
  void theFilesAreTheSameBytesEveryTimeAndAreWrittenOnlyWhenTheyDiffer() throws Exception {
    EmulatedModelFiles.write(dir);
    byte[] first = Files.readAllBytes(dir.resolve("tokenizer.json"));
    long modified = Files.getLastModifiedTime(dir.resolve("tokenizer.json")).toMillis();
    Files.setLastModifiedTime(dir.resolve("tokenizer.json"), java.nio.file.attribute.FileTime.fromMillis(modified - 60_000));
    EmulatedModelFiles.write(dir);
    assertThat(Files.getLastModifiedTime(dir.resolve("tokenizer.json")).toMillis()).isEqualTo(modified - 60_000);
    assertThat(Files.readAllBytes(dir.resolve("tokenizer.json"))).isEqualTo(first);
    Files.writeString(dir.resolve("config.json"), "{}");
    EmulatedModelFiles.write(dir);
    assertThat(Json.parse(Files.readString(dir.resolve("config.json"))).path("vocab_size").asInt()).isEqualTo(EmulatedVocabulary.tokens().size());
    JsonNode tokenizer = Json.parse(first);
    assertThat(tokenizer.at("/model/vocab/alpha").asInt()).isEqualTo(EmulatedTokenizer.id("alpha"));
    assertThat(tokenizer.at("/model/vocab").size()).isEqualTo(EmulatedVocabulary.tokens().size());
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("tokenizer.json", "tokenizer_config.json", "config.json");
    }
  }
}
