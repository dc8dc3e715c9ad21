package dev.srt.operator.emulator;

import dev.srt.operator.testinfra.RealProgramsEnv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code aiperf} of the pinned environment with a rendered command line, as the
 * emulated host's shim must (see {@link #ENV}), its output in {@code <cwd>/<log>}.
 */
final class RealAiPerf {
  /**
   * What the shim sets. Proxies that lead nowhere prove that nothing is downloaded (the tokenizer
   * is a local directory), except to the engines on loopback. HF_HUB_OFFLINE must stay unset:
   * AIPerf 0.13.0 then resolves a tokenizer through the Hugging Face cache only, which refuses a
   * local directory (aiperf/common/tokenizer.py, Tokenizer._from_pretrained_local).
   */
  static final Map<String, String> ENV = Map.of("HTTP_PROXY", "http://127.0.0.1:9", "HTTPS_PROXY", "http://127.0.0.1:9",
      "NO_PROXY", "127.0.0.1,localhost");

  private RealAiPerf() {}

  /** The exit code of {@code argv} (whose first word is {@code aiperf}) run in {@code cwd} with {@code env} added. */
  static int run(List<String> argv, Map<String, String> env, Path cwd, String log) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(argv);
    if (!command.get(0).equals("aiperf")) {
      throw new IllegalArgumentException("not an aiperf command: " + argv);
    }
    command.set(0, RealProgramsEnv.bin("aiperf"));
    ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
        .redirectOutput(cwd.resolve(log).toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.environment().remove("HF_HUB_OFFLINE");
    pb.environment().remove("TRANSFORMERS_OFFLINE");
    pb.environment().putAll(ENV);
    pb.environment().putAll(env);
    Files.createDirectories(cwd);
    Process p = pb.start();
    try {
      if (!p.waitFor(300, TimeUnit.SECONDS)) {
        throw new AssertionError("aiperf did not finish in 300 s: " + Files.readString(cwd.resolve(log)));
      }
      return p.exitValue();
    } finally {
      // aiperf forks its services: end them all, should any be left
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }
}
