package dev.srt.operator.realprograms;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A stand-in run as the emulated host's shims run it: {@code java -jar target/srt-operator.jar emulate ...}. */
final class StandIn {
  static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();

  record Exit(int status, String stderr) {}

  private StandIn() {}

  /** Runs {@code emulate ARGS}; a stand-in that does not refuse within 30 s is killed and reported as still running (-1). */
  static Exit run(Path dir, List<String> emulateArgs) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx128m", "-jar", JAR.toString(), "emulate"));
    command.addAll(emulateArgs);
    try {
      Path err = Files.createTempFile(dir, "stand-in-", ".err");
      ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectError(err.toFile())
          .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("SRT_EMULATOR_STATE", dir.resolve("state").toString());
      Process p = pb.start();
      try {
        boolean ended = p.waitFor(30, TimeUnit.SECONDS);
        return new Exit(ended ? p.exitValue() : -1, Files.readString(err));
      } finally {
        Processes.destroyTree(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
