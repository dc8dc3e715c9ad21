package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.Limits;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.render.Scripts;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, hole 1, "a valid spec exhausts the operator's heap": 256 workers with ~980 KB of engine
 * flags validated, rendered a 251 MB sbatch script in 1.3 GB, and at the operator's heap size ended
 * in OutOfMemoryError (render rc 3), a crash loop for an operator that renders in its own process.
 * The flag values of a comparison are bounded together ({@link Limits#MAX_FLAG_TEXT}), each arm's
 * script is bounded ({@link Limits#MAX_SCRIPT_BYTES}) by measuring it as the renderer writes it, so
 * validate and render agree, and the renderer refuses at the bound instead of allocating on.
 */
class HeapExhaustionBoundsTest {
  private static final String CLUSTER = """
      apiVersion: srt.dev/v1alpha1
      kind: GpuCluster
      metadata: {name: big-pod}
      spec: {mode: slurm, transport: local, workDir: /scratch/srt-operator, gpusPerNode: 8}
      """;

  @TempDir Path dir;

  /** Real sglang flags that take a value, none managed, none the parallelism rules read. */
  private static List<String> engineFlags(int n) {
    List<String> out = new ArrayList<>();
    for (String f : new java.util.TreeSet<>(FlagVocabulary.flags(FlagVocabulary.SGLANG_SERVER))) {
      String name = f.substring(2);
      if (FlagVocabulary.match(FlagVocabulary.SGLANG_SERVER, f).option().equals(f) && !name.startsWith("no-")
          && !name.contains("parallel") && !name.contains("-tp") && !name.contains("-dp") && !name.contains("disaggregation")
          && !Validator.MANAGED_ENGINE_ARGS.contains(name) && !name.contains("kv-events") && out.size() < n) {
        out.add(name);
      }
    }
    return out;
  }

  private static String comparison(Map<String, String> args, Map<String, String> env) {
    StringBuilder b = new StringBuilder("""
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: heap}
        spec:
          clusterRef: {name: big-pod}
          model: {path: /models/m}
          resources: {aggNodes: 32, aggWorkers: 256, gpusPerWorker: 1}
          backend:
            args:
        """);
    b.append("      page-size: 16\n");
    args.forEach((k, v) -> b.append("      ").append(k).append(": ").append(v).append('\n'));
    b.append("    env:\n      HF_HOME: /scratch/hf\n");
    env.forEach((k, v) -> b.append("      ").append(k).append(": ").append(v).append('\n'));
    b.append("""
          workload: {tool: bench-serving}
          arms:
          - name: router
            frontend: {type: sgl-router, source: /src/sgl-router}
        """);
    return b.toString();
  }

  private static Map<String, String> flags(int n, int length) {
    Map<String, String> args = new LinkedHashMap<>();
    engineFlags(n).forEach(f -> args.put(f, "v".repeat(length)));
    return args;
  }

  private static List<Problem> errors(String comparison) {
    return LoadedResources.parse("heap.yaml", CLUSTER + "---\n" + comparison).problems().stream().filter(Problem::isError).toList();
  }

  private static RunPlan plan(String comparison) {
    LoadedResources r = LoadedResources.parse("heap.yaml", CLUSTER + "---\n" + comparison);
    RouterComparison rc = r.comparisons().get(0);
    GpuCluster cluster = r.clusters().get(0);
    return Planner.plan(rc, cluster, "router", Mode.SLURM);
  }

  @Test
  void theIssuesReproIsRefusedWithItsFieldPath() {
    // ~245 flags of 4000 characters: 980 KB of engine flags, written once for each of 256 workers.
    String repro = comparison(flags(245, 4000), Map.of());
    assertThat(errors(repro)).extracting(Problem::describe).singleElement().asString()
        .startsWith("spec.backend.args: the flag values of this comparison come to 98")
        .contains("characters, more than 131072 in all (this map has 98");
  }

  @Test
  void aScriptBeyondTheBoundIsRefusedAtTheArmEvenWithinEveryOtherBound() {
    // 30 flags of 4000 characters (within the flag total) and 128 env values of 4000 (within the env bounds), times 256 workers.
    for (String spec : List.of(comparison(flags(30, 4000), Map.of()), comparison(Map.of(), env(120, 4000)))) {
      assertThat(errors(spec)).extracting(Problem::describe).singleElement().asString()
          .startsWith("spec.arms[0]: its slurm script would be more than 8388608 bytes (8 MiB), which the operator does not render")
          .contains("is too large for 256 workers");
    }
  }

  private static Map<String, String> env(int n, int length) {
    Map<String, String> env = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      env.put("PAD_" + i, "p".repeat(length));
    }
    return env;
  }

  /** Around the bound, byte for byte: validate refuses exactly the specs whose script render refuses. */
  @Test
  void validateAndRenderAgreeAtTheBound() {
    // Nine values written once per worker (2,304 bytes a character): the length where the script crosses the bound.
    long at100 = Scripts.bytes(plan(comparison(Map.of(), env(9, 100))), Limits.MAX_SCRIPT_BYTES);
    long at200 = Scripts.bytes(plan(comparison(Map.of(), env(9, 200))), Limits.MAX_SCRIPT_BYTES);
    long perCharacter = (at200 - at100) / 100;
    assertThat(perCharacter).isEqualTo(256 * 9);
    int low = (int) (100 + (Limits.MAX_SCRIPT_BYTES - at100) / perCharacter);
    int high = low + 1;
    String fits = comparison(Map.of(), env(9, low));
    String over = comparison(Map.of(), env(9, high));
    assertThat(errors(fits)).isEmpty();
    assertThat(Scripts.render(plan(fits)).getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Limits.MAX_SCRIPT_BYTES)
        .isGreaterThan(Limits.MAX_SCRIPT_BYTES - 256 * 9 * 2);
    assertThat(errors(over)).extracting(Problem::path).containsExactly("spec.arms[0]");
    assertThatThrownBy(() -> Scripts.render(plan(over))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("the script would be more than 8388608 bytes (8 MiB): validate the spec");
  }

  /** With validation bypassed, the renderer stops at the bound: a fraction of the 1.3 GB it used to allocate. */
  @Test
  void theRendererRefusesBeforeAllocatingTheScript() {
    RunPlan plan = plan(comparison(flags(245, 4000), Map.of()));
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    assertThatThrownBy(() -> Scripts.render(plan)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than 8388608 bytes");
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(allocated).as("bytes allocated by the refused render").isLessThan(200L << 20);
  }

  /** The CLI's render (the issue's rc 3), in a JVM with a heap far smaller than the script: exit 1 with the field path, no OutOfMemoryError. */
  @Test
  void theCliInASmallHeapRefusesTheRepro() throws Exception {
    Path file = dir.resolve("heap.yaml");
    Files.writeString(file, CLUSTER + "---\n" + comparison(flags(30, 4000), Map.of()));
    for (String command : List.of("render")) {
      List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m",
          "-cp", System.getProperty("java.class.path"), "dev.srt.operator.cli.Main", command, "-f", file.toString()));
      if (command.equals("render")) {
        argv.addAll(List.of("--arm", "router", "--mode", "slurm", "--out-dir", dir.resolve("out").toString()));
      }
      Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(command + ": " + output).isEqualTo(1);
      assertThat(output).as(command).contains("spec.arms[0]: its slurm script would be more than 8388608 bytes").doesNotContain("OutOfMemoryError");
    }
  }
}
