package dev.srt.operator.render;

import dev.srt.operator.base.Shell;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a run's end is reported. A cancel writes {@code cancel-requested} before it signals, and the
 * EXIT handler counts it: bash 5.2 can fail to run a TERM trap that arrives while it parses a
 * command substitution ("trap: unexpected EOF while looking for matching `)'", exit 2), which
 * would otherwise report a cancelled run as failed.
 */
class ExitStatusIT {
  @TempDir Path runDir;

  private String finished(String body) throws Exception {
    String script = "set -Eeuo pipefail\nset -m\nSRT_COMPARISON=c SRT_ARM=a SRT_MODE=direct SRT_RUN_ID=r1 SRT_PYTHON=python3\n"
        + "RUN_DIR=" + Shell.quote(runDir.toString()) + "\ncd \"$RUN_DIR\"\n" + BashLibrary.text() + "\nsrt_begin\n" + body;
    Bash.run(runDir, 30, java.util.List.of("bash", "-c", script));
    return Files.readAllLines(runDir.resolve("events.jsonl")).stream().filter(l -> l.contains("\"finished\"")).findFirst().orElseThrow();
  }

  @Test
  void anExitAfterACancelRequestIsACancel() throws Exception {
    assertThat(finished(": >cancel-requested\nexit 2\n")).contains("\"status\":\"cancelled\"").contains("\"code\":2");
  }

  @Test
  void theSameExitWithoutOneIsAFailure() throws Exception {
    assertThat(finished("exit 2\n")).contains("\"status\":\"failed\"");
  }

  @Test
  void aTrappedTermIsACancelWithoutTheMarkerToo() throws Exception {
    assertThat(finished("kill -TERM $$\nsleep 5\n")).contains("\"status\":\"cancelled\"").contains("\"code\":143");
  }
}
