package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RealProgramsTest {
  @TempDir Path tmp;

  @Test
  void findsOnlyACompleteEnvironmentNamedAfterItsLock() throws Exception {
    Map<String, String> env = Map.of(RealPrograms.HOME_VAR, tmp.toString());
    Path dir = tmp.resolve(RealPrograms.lockHash());
    Files.createDirectories(dir.resolve("bin"));
    Files.writeString(dir.resolve("bin/python"), "");
    dir.resolve("bin/python").toFile().setExecutable(true);
    assertThat(RealPrograms.environment(env)).as("half-installed").isEmpty();
    Files.writeString(dir.resolve(RealPrograms.COMPLETE), "");
    assertThat(RealPrograms.environment(env)).contains(dir);
    assertThat(RealPrograms.environment(Map.of(RealPrograms.HOME_VAR, tmp.resolve("other").toString()))).isEmpty();
  }

  @Test
  void theInstallScriptNamesTheEnvironmentAsTheJarLooksForIt() throws Exception {
    String script = Files.readString(Path.of(".ci/install-real-programs.sh"));
    assertThat(script).contains("sha256sum \"${lock}\" | cut -c1-16").contains("srt-operator/real-programs");
    String lock = Files.readString(Path.of("src/main/resources/dev/srt/operator/emulator/" + RealPrograms.LOCK));
    assertThat(lock.lines().filter(l -> l.matches("^[a-z].*==.*")).count()).isGreaterThan(100);
    assertThat(lock).contains("aiperf==0.13.0").contains("sglang-router==0.3.2").contains("ai-dynamo==1.6.1").doesNotContain("torch==");
  }
}
