package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stand-in frontend refuses what the real 1.6.1 frontend's parser leaves over, and nothing else. */
class DynamoFrontendOptionsTest {
  @Test
  void theRenderedFlagsTheirAbbreviationsAndNegativeValuesAreKnown() {
    assertThat(DynamoFrontendOptions.unknown(List.of("--http-port", "8000", "--router-mode", "kv", "--router-policy-config", "p.yaml",
        "--no-router-kv-events", "--router-temperature=0.5", "--router-min", "2", "--router-kv-overlap-score-weight", "-1.5", "-i")))
        .isEmpty();
  }

  @Test
  void anUnknownOptionIsLeftOverWithTheWordsAfterItAsTheRealParserLeavesThem() {
    List<String> unknown = DynamoFrontendOptions.unknown(List.of("--http-port", "8000", "--bogus-flag", "x", "--router-mode", "kv",
        "--router-conditional-prefill", "--policy=cache_aware"));
    assertThat(unknown).containsExactly("--bogus-flag", "x", "--router-conditional-prefill", "--policy=cache_aware");
    assertThat(DynamoFrontendOptions.message(unknown))
        .isEqualTo("Unknown arguments specified: ['--bogus-flag', 'x', '--router-conditional-prefill', '--policy=cache_aware']");
    // a prefix of several options is no abbreviation
    assertThat(DynamoFrontendOptions.unknown(List.of("--router-k", "1"))).containsExactly("--router-k", "1");
  }

  @Test
  void theStandInStopsAtStartUpWithTheRealMessage() {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
    DynamoFrontend frontend = new DynamoFrontend(DynamoFrontend.Options.parse(List.of("--http-port", "0", "--bogus-flag", "x"), Map.of(),
        quiet), Map.of(), quiet);
    assertThatThrownBy(frontend::start).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown arguments specified: ['--bogus-flag', 'x']");
  }
}
