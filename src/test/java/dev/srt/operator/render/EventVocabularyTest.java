package dev.srt.operator.render;

import dev.srt.operator.plan.RunEventType;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The event names and phases the scripts write are exactly the ones the readers know
 * ({@link RunEventType}): a name added on one side only fails here, not in a run.
 */
class EventVocabularyTest {
  static final Pattern EVENT = Pattern.compile("\\bsrt_event ([a-z][a-z-]*)");
  static final Pattern PHASE = Pattern.compile("\\bsrt_phase ([a-z]+)");

  /** The library and every golden script (both modes, every arm kind). */
  static String everythingTheScriptsRun() throws IOException {
    StringBuilder all = new StringBuilder(BashLibrary.text()).append(BashLibrary.sidecarSupervisor());
    try (Stream<Path> goldens = Files.list(Path.of("src/test/resources/golden"))) {
      for (Path p : goldens.sorted().toList()) {
        all.append(Files.readString(p));
      }
    }
    return all.toString();
  }

  static Set<String> matches(Pattern p, String text) {
    Set<String> out = new TreeSet<>();
    Matcher m = p.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void theScriptsWriteExactlyTheEventsTheReadersKnow() throws IOException {
    Set<String> written = matches(EVENT, everythingTheScriptsRun());
    written.add(RunEventType.PHASE.wire()); // srt_phase writes it
    Set<String> known = Arrays.stream(RunEventType.values()).map(RunEventType::wire).collect(Collectors.toCollection(TreeSet::new));
    assertThat(written).isEqualTo(known);
  }

  @Test
  void theScriptsGoThroughExactlyThePhasesTheReadersKnow() throws IOException {
    Set<String> written = matches(PHASE, everythingTheScriptsRun());
    Set<String> known = Arrays.stream(RunEventType.Phase.values()).map(RunEventType.Phase::wire).collect(Collectors.toCollection(TreeSet::new));
    assertThat(written).isEqualTo(known);
  }
}
