package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/srt-operator, and the class-data sharing archive that {@code mvn package} builds next to the jar. */
class LauncherIT {
  record Result(int code, String out, String err) {}

  static Result run(Map<String, String> env, String... command) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command);
    // Options from the environment would be announced on stderr, which the test reads.
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("JDK_JAVA_OPTIONS");
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), out, err);
  }

  @Test
  void theArchiveBuiltAtPackageTimeMapsIntoTheJdkThatBuiltIt() throws Exception {
    // -Xshare:on makes an archive that cannot be used an error instead of a silent slow start.
    Result r = run(Map.of(), Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:SharedArchiveFile=target/srt-operator.jsa", "-Xshare:on", "-Xlog:class+load=info",
        "-jar", "target/srt-operator.jar", "validate", "-f", "examples/router-comparison.yaml");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("valid: RouterComparison qwen3-32b-routers (3 arms)")
        .containsPattern("dev\\.srt\\.operator\\.config\\.LoadedResources source: shared objects file \\(top\\)")
        .containsPattern("com\\.fasterxml\\.jackson\\.databind\\.ObjectMapper source: shared objects file \\(top\\)");
  }

  @Test
  void theLauncherRunsTheCommandWithOrWithoutAnArchive(@TempDir Path dir) throws Exception {
    Map<String, String> jvm = Map.of("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    Result withArchive = run(jvm, "bin/srt-operator", "validate", "-f", "examples/router-comparison.yaml");
    assertThat(withArchive.code()).as(withArchive.err()).isZero();
    assertThat(withArchive.out()).isEqualTo("valid: RouterComparison qwen3-32b-routers (3 arms)\n  estimated benchmark time: unknown "
        + "(without spec.workload.load the benchmark stops after its own request count); at most 24h per run (execution.maxDuration)\n");
    assertThat(withArchive.err()).isEmpty();

    // A jar without an archive next to it (or with an older one) starts without, and quietly.
    Path jar = Files.copy(Path.of("target/srt-operator.jar"), dir.resolve("srt-operator.jar"));
    Files.copy(Path.of("target/srt-operator.jsa"), dir.resolve("srt-operator.jsa"));
    Files.setLastModifiedTime(dir.resolve("srt-operator.jsa"),
        FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
    for (List<String> command : List.of(List.of("bin/srt-operator", "version"), List.of("bin/srt-operator", "validate", "-f", "nonexistent.yaml"))) {
      Map<String, String> env = new HashMap<>(jvm);
      env.put("SRT_OPERATOR_JAR", jar.toString());
      Result r = run(env, command.toArray(String[]::new));
      assertThat(r.err()).doesNotContain("cds", "shared archive");
      if (command.contains("version")) {
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("version:");
      } else {
        assertThat(r.code()).as("a problem still fails the command").isNotZero();
      }
    }
  }
}
