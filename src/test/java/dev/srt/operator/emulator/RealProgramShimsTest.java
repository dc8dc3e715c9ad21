package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shims run a real program from the pinned environment where it works with its arm, else the stand-in. */
class RealProgramShimsTest {
  @TempDir Path tmp;
  Path bin;
  Path env;

  @BeforeEach
  void install() throws IOException {
    // the "java" of the stand-ins and the environment's programs only say how they were called
    Path java = script(tmp.resolve("jdk/java"), "echo \"stand-in: ${*: -$(($# - 7))}\"");
    env = tmp.resolve("env");
    script(env.resolve("bin/python"), "echo \"real python: $* PYTHONPATH=${PYTHONPATH-unset}\"");
    script(env.resolve("bin/aiperf"), "if [[ \"${1-}\" == profile ]]; then echo \"real aiperf: $* HF_HUB_CACHE=${HF_HUB_CACHE-unset} HF_HUB_OFFLINE=${HF_HUB_OFFLINE-unset}\"; else echo \"real aiperf: $*\"; fi");
    Files.createDirectories(env.resolve("lib/python3.11/site-packages/aiperf-0.13.0.dist-info"));
    Files.createDirectories(env.resolve("lib/python3.11/site-packages/sglang_router-0.3.2.dist-info"));
    Path jar = Files.writeString(tmp.resolve("srt.jar"), "");
    bin = tmp.resolve("bin");
    new ShimInstaller(new JavaLauncher(java, jar), tmp.resolve("state"), "/usr/bin/python3", null, env).install(bin);
  }

  @Test
  void realProgramsRunFromTheEnvironmentWithTheCallersPythonPath() throws Exception {
    assertThat(run(Map.of(), "aiperf", "--help")).isEqualTo("real aiperf: --help");
    assertThat(run(Map.of("PYTHONPATH", "/mine"), "python3", "-u", "-m", "sglang_router.launch_router", "--policy", "cache_aware"))
        .isEqualTo("real python: -u -m sglang_router.launch_router --policy cache_aware PYTHONPATH=/mine");
    assertThat(run(Map.of(), "python3", "-m", "sglang_router.launch_router")).endsWith("PYTHONPATH=unset");
  }

  /** The emulated host has no model directory: a real client's tokenizer is the emulated model's own, from a hub cache. */
  @Test
  void aRealClientGetsTheEmulatedModelsTokenizerWhereTheModelDirectoryHasNone() throws Exception {
    Path hub = tmp.resolve("state").resolve(ShimInstaller.HUB_CACHE_DIR);
    Path repo = hub.resolve("models--srt-emulated--model");
    String revision = Files.readString(repo.resolve("refs/main"));
    assertThat(repo.resolve("snapshots").resolve(revision).resolve("tokenizer.json")).isRegularFile();
    String offline = " HF_HUB_CACHE=" + hub + " HF_HUB_OFFLINE=1";
    assertThat(run(Map.of(), "aiperf", "profile", "--tokenizer", "/models/Qwen3-32B-FP8", "--model", "m"))
        .isEqualTo("real aiperf: profile --tokenizer srt-emulated/model --model m" + offline);
    assertThat(run(Map.of(), "aiperf", "profile", "--tokenizer=/models/none")).isEqualTo("real aiperf: profile --tokenizer=srt-emulated/model" + offline);
    assertThat(run(Map.of(), "aiperf", "profile", "--model", "m")).as("by name, from a hub this host has no copy of")
        .isEqualTo("real aiperf: profile --model m --tokenizer srt-emulated/model" + offline);
    Path own = Files.createDirectories(tmp.resolve("own model"));
    Files.writeString(own.resolve("tokenizer.json"), "{}");
    assertThat(run(Map.of(), "aiperf", "profile", "--tokenizer", own.toString()))
        .as("a real tokenizer directory is the client's own, read as it is").isEqualTo("real aiperf: profile --tokenizer " + own + " HF_HUB_CACHE=unset HF_HUB_OFFLINE=unset");
  }

  @Test
  void theSwitchChoosesStandInsForAllOrForTheNamedPrograms() throws Exception {
    Map<String, String> some = Map.of(HostPrograms.STAND_INS_VAR, "etcd,sglang_router.launch_router");
    assertThat(run(some, "python3", "-m", "sglang_router.launch_router", "--policy", "x"))
        .isEqualTo("stand-in: emulate router sgl-model-gateway --policy x");
    assertThat(run(some, "aiperf", "--version")).isEqualTo("real aiperf: --version");
    assertThat(run(Map.of(HostPrograms.STAND_INS_VAR, "1"), "aiperf", "profile")).isEqualTo("stand-in: emulate aiperf profile");
  }

  @Test
  void programsThatCannotWorkWithTheirArmYetAlwaysRunTheirStandIn() throws Exception {
    assertThat(run(Map.of(), "python3", "-m", "dynamo.frontend", "--http-port", "1")).isEqualTo("stand-in: emulate router dynamo --http-port 1");
    assertThat(run(Map.of(), "python3", "-m", "dynamo.sglang.sidecar")).isEqualTo("stand-in: emulate dynamo-sidecar");
  }

  @Test
  void theHostSaysWhichProgramsAreRealWithTheirVersions() throws Exception {
    List<String> rows = run(Map.of(HostPrograms.STAND_INS_VAR, "aiperf"), "srt-emulated-host", "programs").lines().toList();
    assertThat(rows).contains("aiperf\tworkload\temulated\t" + AiPerf.VERSION + "\tstand-in: " + HostPrograms.STAND_INS_VAR
            + " chose it, or no real program is installed",
        "sglang_router.launch_router\trouter\treal\t0.3.2\t" + env.toAbsolutePath().normalize());
    assertThat(rows).anySatisfy(r -> assertThat(r).startsWith("dynamo.frontend\trouter\temulated\t-\tit discovers workers only"));
  }

  @Test
  void importlibMetadataReportsTheVersionOfWhatRuns() throws Exception {
    Path state = tmp.resolve("state");
    assertThat(state.resolve("preinstalled-real/aiperf/aiperf-0.13.0.dist-info")).isDirectory();
    assertThat(state.resolve("preinstalled/aiperf/aiperf-" + AiPerf.VERSION + ".dist-info")).isDirectory();
    String real = Files.readString(bin.resolve("python3"));
    assertThat(real).contains("if srt_real_program aiperf >/dev/null; then");
  }

  private String run(Map<String, String> extra, String... argv) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of(bin.resolve(argv[0]).toString()));
    cmd.addAll(List.of(argv).subList(1, argv.length));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    Map<String, String> e = pb.environment();
    e.remove("PYTHONPATH");
    e.remove(HostPrograms.STAND_INS_VAR);
    e.put("PATH", bin + ":/usr/bin:/bin");
    e.putAll(new HashMap<>(extra));
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    p.waitFor();
    return out;
  }

  private static Path script(Path file, String body) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/usr/bin/env bash\n" + body + "\n");
    file.toFile().setExecutable(true);
    return file;
  }
}
