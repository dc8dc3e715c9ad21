package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeterministicReplyTest {
  @Test
  void theCanaryGetsTheWordItAsksFor() {
    DeterministicReply r = DeterministicReply.answer("Reply with one word: ready", List.of("x"), 16, false);
    assertThat(r.text()).isEqualTo("ready");
    assertThat(r.finishReason()).isEqualTo("stop");
  }

  @Test
  void ignoreEosGivesExactlyMaxTokens() {
    DeterministicReply r = DeterministicReply.answer("tell me more", List.of("a", "b"), 256, true);
    assertThat(r.words()).hasSize(256);
    assertThat(r.finishReason()).isEqualTo("length");
  }

  @Test
  void equalPromptsGetEqualReplies() {
    List<String> prompt = ChatPrompt.tokens(Json.parse("[{\"role\":\"user\",\"content\":\"same words here\"}]"));
    assertThat(DeterministicReply.answer("same words here", prompt, 64, false))
        .isEqualTo(DeterministicReply.answer("same words here", prompt, 64, false));
  }

  @Test
  void maxTokensCutsANaturalReply() {
    DeterministicReply r = DeterministicReply.answer("hello", List.of("h"), 1, false);
    assertThat(r.words()).hasSize(1);
    assertThat(r.finishReason()).isEqualTo("length");
  }

  @Test
  void theTemplateMarksRolesAndSpellsWordsOutsideTheVocabulary() {
    List<String> t = ChatPrompt.tokens(Json.parse(
        "[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi  there\"}]}]"));
    assertThat(t).containsExactly("<|system|>", "be", "b", "##r", "##i", "##e", "##f", "<|user|>", "hi", "there", "<|assistant|>");
  }
}
