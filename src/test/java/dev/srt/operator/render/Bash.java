package dev.srt.operator.render;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs bash and shellcheck from tests. */
final class Bash {
  record Result(int code, String output) {}

  private Bash() {}

  static Result run(Path cwd, long timeoutSeconds, List<String> command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    if (cwd != null) {
      pb.directory(cwd.toFile());
    }
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + command);
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  static Result script(Path cwd, long timeoutSeconds, String text, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("bash", "-c", text, "test"));
    cmd.addAll(List.of(args));
    return run(cwd, timeoutSeconds, cmd);
  }

  static boolean onPath(String program) {
    try {
      return run(null, 10, List.of("bash", "-c", "command -v " + program)).code() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
