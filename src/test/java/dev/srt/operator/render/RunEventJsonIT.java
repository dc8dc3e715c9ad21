package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The library's {@code srt_event} writes one JSON object per line whatever its values hold (every
 * ASCII character, quotes, backslashes, newlines, non-ASCII text), under any locale and time zone,
 * with bash 5's clock and with bash 4's (no {@code EPOCHREALTIME}: {@code date}).
 */
class RunEventJsonIT {
  @TempDir Path dir;

  @ParameterizedTest(name = "LC_ALL={0}, TZ={1}, bash 5 clock={2}")
  @CsvSource({"C.UTF-8, America/New_York, true", "C, Asia/Kolkata, true", "C.UTF-8, UTC, false"})
  void everyValueIsWrittenAsValidJsonWithControlCharactersDropped(String locale, String zone, boolean bash5Clock) throws Exception {
    List<String> values = new ArrayList<>();
    for (int c = 1; c < 128; c++) {
      values.add("a" + (char) c + "b");
      values.add(String.valueOf((char) c).repeat(3));
    }
    values.add("é漢🙂\u202e\u200f \"quoted\" \\back\\slash\\ \n\r\t$(touch x) `y` ${z}");
    values.add("");
    Random random = new Random(5);
    String alphabet = "\u0001\u0007\u001b\u001f\u007f\"\\'$`\n\r\t é漢🙂ab";
    for (int i = 0; i < 200; i++) {
      StringBuilder s = new StringBuilder();
      for (int n = random.nextInt(20); n > 0; n--) {
        s.appendCodePoint(alphabet.codePoints().toArray()[random.nextInt(alphabet.codePointCount(0, alphabet.length()))]);
      }
      values.add(s.toString());
    }
    Path valuesFile = dir.resolve("values");
    Files.writeString(valuesFile, String.join("\0", values) + "\0", StandardCharsets.UTF_8);
    String script = BashLibrary.text() + "\n"
        + (bash5Clock ? "" : "unset EPOCHREALTIME\n")
        + "while IFS= read -r -d '' v; do srt_event probe value \"$v\" \"key $v\" x count:= 7; done <\"$1\"\n";
    Instant before = Instant.now().minusSeconds(1);
    Bash.Result r = Bash.run(dir, 120, List.of("env", "-i", "PATH=/usr/bin:/bin", "LC_ALL=" + locale, "TZ=" + zone, "RUN_DIR=" + dir,
        "bash", "-c", script, "test", valuesFile.toString()));
    Instant after = Instant.now().plusSeconds(1);
    assertThat(r.code()).as(r.output()).isZero();

    List<String> lines = Files.readAllLines(dir.resolve("events.jsonl"), StandardCharsets.UTF_8);
    assertThat(lines).hasSameSizeAs(values);
    for (int i = 0; i < values.size(); i++) {
      String expected = values.get(i).replaceAll("[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f]", "");
      JsonNode e = Mappers.json().readTree(lines.get(i));
      assertThat(e.path("event").asText()).isEqualTo("probe");
      assertThat(e.path("value").asText()).as("line %d: %s", i, lines.get(i)).isEqualTo(expected);
      assertThat(e.path("key " + expected).asText()).as("line %d", i).isEqualTo("x");
      assertThat(e.path("count").isInt()).isTrue();
      String ts = e.path("ts").asText();
      assertThat(ts).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
      assertThat(Instant.parse(ts)).isBetween(before, after);
    }
    assertThat(Duration.between(Instant.parse(Mappers.json().readTree(lines.get(0)).path("ts").asText()),
        Instant.parse(Mappers.json().readTree(lines.get(lines.size() - 1)).path("ts").asText())).isNegative()).isFalse();
  }
}
