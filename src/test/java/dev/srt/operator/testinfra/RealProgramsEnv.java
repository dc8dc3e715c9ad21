package dev.srt.operator.testinfra;

import dev.srt.operator.emulator.RealPrograms;
import java.nio.file.Path;

/** The pinned environment of real programs, for tests that run them. */
public final class RealProgramsEnv {
  private RealProgramsEnv() {}

  /**
   * The environment's directory; skips the calling test without it (fails it with
   * {@code SRT_E2E_REQUIRED=1}, as CI sets: {@code .ci/run} installs it first).
   */
  public static Path require() {
    var env = RealPrograms.environment();
    TestHosts.require(env.isPresent() ? null : "the real programs' environment is not installed",
        "run bash .ci/install-real-programs.sh");
    return env.orElseThrow();
  }

  /** {@code bin/<name>} of the environment (python, aiperf, ...). */
  public static String bin(String name) {
    return require().resolve("bin").resolve(name).toString();
  }
}
