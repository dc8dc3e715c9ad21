package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The worked scripts in docs/config-reference.md ("Key lines of `<arm>/run.sh`") are lines of the
 * golden scripts, so the reference cannot drift from what the renderer writes.
 */
class DocsExcerptsTest {
  private static final Pattern EXCERPT = Pattern.compile("Key lines of `([a-z0-9-]+)/run\\.sh`[^`]*```bash\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everyExcerptLineIsInTheArmsGoldenScript() throws Exception {
    String doc = Files.readString(Path.of("docs/config-reference.md"));
    Matcher m = EXCERPT.matcher(doc);
    int excerpts = 0;
    while (m.find()) {
      excerpts++;
      List<String> golden = Files.readAllLines(Path.of("src/test/resources/golden", m.group(1) + ".run.sh"));
      List<String> lines = m.group(2).lines().filter(l -> !l.isBlank() && !l.equals("…")).toList();
      assertThat(lines).as("excerpt of %s/run.sh", m.group(1)).isNotEmpty();
      assertThat(golden).as("golden %s.run.sh (regenerate the excerpt in docs/config-reference.md)", m.group(1)).containsAll(lines);
    }
    assertThat(excerpts).isEqualTo(3);
  }
}
