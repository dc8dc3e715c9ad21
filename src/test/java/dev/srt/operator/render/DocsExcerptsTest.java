package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The worked scripts in docs/config-reference.md ("Key lines of `<arm>/run.sh`") are lines of the
 * golden scripts, so the reference cannot drift from what the renderer writes. With
 * {@code -Dgolden.update=true} (after GoldenScriptsTest refreshed the goldens) the excerpts are
 * rewritten from the scripts as rendered now.
 */
class DocsExcerptsTest {
  private static final Path DOC = Path.of("docs/config-reference.md");
  /** An arm's excerpt; group 1 marks the prefill/decode example's arms (golden {@code disagg-<arm>}). */
  private static final Pattern EXCERPT =
      Pattern.compile("Key lines of (the prefill/decode example's )?`([a-z0-9-]+)/run\\.sh`[^`]*```bash\\n(.*?)```", Pattern.DOTALL);
  private static final String ELLIPSIS = "…";

  @Test
  void everyExcerptLineIsInTheArmsGoldenScript() throws Exception {
    if (Boolean.getBoolean("golden.update")) {
      rewriteExcerpts();
    }
    Matcher m = EXCERPT.matcher(Files.readString(DOC));
    int excerpts = 0;
    while (m.find()) {
      excerpts++;
      List<String> lines = m.group(3).lines().filter(l -> !l.isBlank() && !l.equals(ELLIPSIS)).toList();
      assertThat(lines).as("excerpt of %s/run.sh", arm(m)).isNotEmpty();
      assertThat(golden(arm(m))).as("golden %s.run.sh (refresh the excerpts with -Dgolden.update=true)", arm(m))
          .containsAll(lines);
    }
    assertThat(excerpts).isEqualTo(4);
  }

  /** The golden's name of an excerpt's arm. */
  private static String arm(Matcher m) {
    return (m.group(1) == null ? "" : "disagg-") + m.group(2);
  }

  /** The arm's golden direct script; while refreshing, the script as rendered now (the goldens may be refreshed after this test). */
  private static List<String> golden(String arm) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      boolean disagg = arm.startsWith("disagg-");
      return Scripts.render(dev.srt.operator.plan.Examples.plan(disagg ? dev.srt.operator.plan.Examples.DISAGG : dev.srt.operator.plan.Examples.COMPARISON,
          disagg ? arm.substring("disagg-".length()) : arm, dev.srt.operator.api.Mode.DIRECT)).lines().toList();
    }
    return Files.readAllLines(GoldenScriptsTest.GOLDEN.resolve(arm + ".run.sh"));
  }

  /** Arm 1 and 2 from the build to the router gate (arm 1 to the results); arm 3's build and router only. */
  private static void rewriteExcerpts() throws IOException {
    String doc = Files.readString(DOC);
    StringBuilder out = new StringBuilder();
    Matcher m = EXCERPT.matcher(doc);
    int last = 0;
    while (m.find()) {
      List<String> g = golden(arm(m));
      List<String> excerpt = switch (arm(m)) {
        case "sgl-router" -> between(g, "srt_phase building", "srt_report_results");
        case "dynamo-kv" -> between(g, "srt_phase building", "srt_gate_passed router-ready");
        case "disagg-dynamo-kv" -> {
          // The P/D part: the workers and the router, then the two readiness gates.
          List<String> e = new ArrayList<>(between(g, "srt_wait_ports_free ", "srt_start router "));
          e.add("");
          e.addAll(between(g, "srt_gate workers-health", "srt_gate_passed router-ready"));
          yield e;
        }
        default -> {
          List<String> e = new ArrayList<>(between(g, "srt_stage_dynamo_build() {", "srt_stage dynamo-build"));
          e.add(ELLIPSIS);
          g.stream().filter(l -> l.startsWith("srt_start router ")).forEach(e::add);
          yield e;
        }
      };
      out.append(doc, last, m.start(3)).append(String.join("\n", excerpt)).append('\n');
      last = m.end(3);
    }
    out.append(doc.substring(last));
    Files.writeString(DOC, out.toString());
  }

  private static List<String> between(List<String> lines, String first, String last) {
    int from = indexOf(lines, first, 0);
    return lines.subList(from, indexOf(lines, last, from) + 1);
  }

  private static int indexOf(List<String> lines, String prefix, int from) {
    for (int i = from; i < lines.size(); i++) {
      if (lines.get(i).startsWith(prefix)) {
        return i;
      }
    }
    throw new AssertionError("no line starting with " + prefix);
  }
}
