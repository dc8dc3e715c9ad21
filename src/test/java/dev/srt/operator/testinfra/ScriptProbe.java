package dev.srt.operator.testinfra;

import dev.srt.operator.plan.Probe;
import dev.srt.operator.render.BashLibrary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A readiness probe of a plan, run by the very program a rendered script runs for it: the
 * library's {@code SRT_PROBE_PY} with the arguments {@code srt_wait} / {@code srt_canary} give it
 * (render/ScriptBody), so a test that waits on it waits on exactly what the script waits on.
 */
public final class ScriptProbe {
  private final String python;
  private final Path workDir;

  /** {@code python}: the interpreter that runs the probe program (the script's {@code $SRT_PYTHON}). */
  public ScriptProbe(String python, Path workDir) {
    this.python = python;
    this.workDir = workDir;
  }

  /** Whether {@code probe} passes now (one attempt, as one round of {@code srt_wait}). */
  public boolean passes(Probe probe) {
    List<String> argv = new ArrayList<>(List.of("bash", "--norc", "--noprofile", "-c",
        BashLibrary.probeDefinition() + "\"$0\" -c \"$SRT_PROBE_PY\" \"$@\"\n", python, probe.kind().wire(), probe.url()));
    argv.addAll(arguments(probe));
    try {
      Process p = new ProcessBuilder(argv).directory(workDir.toFile()).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(150, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** What follows KIND and URL on the script's line for this probe. */
  private static List<String> arguments(Probe probe) {
    return switch (probe.kind()) {
      case HTTP_STATUS -> List.of(String.valueOf(probe.status()));
      case DYNAMO_INSTANCES, DYNAMO_PREFILL_INSTANCES -> List.of(String.valueOf(probe.count()));
      case JSON_TRUE -> List.of(probe.field());
      // srt_canary: the model and where the answer is kept
      case CHAT -> List.of(probe.model(), "logs/canary.json");
      case TCP -> List.of();
    };
  }
}
