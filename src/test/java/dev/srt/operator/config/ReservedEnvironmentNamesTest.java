package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.plan.Examples;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 8, finding 3: environment names that make bash, the loader or git run code, or that the
 * scripts set themselves, are rejected in every env map with the entry's field path.
 */
class ReservedEnvironmentNamesTest {
  /** Each env map of both kinds: its path, and how to put one entry into a fresh copy of the examples. */
  private static final Map<String, BiFunction<String, String, List<Problem>>> MAPS = maps();

  private static Map<String, BiFunction<String, String, List<Problem>>> maps() {
    Map<String, BiFunction<String, String, List<Problem>>> m = new LinkedHashMap<>();
    m.put("spec.backend.env", (k, v) -> validate(rc -> rc.getSpec().backend.env.put(k, v)));
    m.put("spec.arms[1].frontend.env", (k, v) -> validate(rc -> rc.getSpec().arms.get(1).frontend.env.put(k, v)));
    m.put("spec.workload.env", (k, v) -> validate(rc -> rc.getSpec().workload.env.put(k, v)));
    m.put("spec.env", (k, v) -> {
      GpuCluster c = Examples.cluster(Examples.DIRECT_CLUSTER);
      c.getSpec().env.put(k, v);
      return Validator.validate(c);
    });
    return m;
  }

  private static List<Problem> validate(java.util.function.Consumer<RouterComparison> edit) {
    RouterComparison rc = Examples.comparison();
    edit.accept(rc);
    return Validator.validate(rc, Examples.cluster(Examples.DIRECT_CLUSTER));
  }

  private static List<String> reservedSamples() {
    List<String> names = new ArrayList<>(ReservedEnvNames.names());
    ReservedEnvNames.prefixes().forEach(p -> names.add(p + "X"));
    names.addAll(List.of("BASH_FUNC_srt_start", "LD_PRELOAD", "LD_LIBRARY_PATH", "SRT_SIDECAR_SUPERVISOR", "SRT_PROBE_PY",
        "SRT_RUN_DIR", "GIT_CONFIG_COUNT", "SLURM_EXPORT_ENV"));
    return names;
  }

  @TestFactory
  Stream<DynamicTest> everyReservedNameIsRejectedInEveryEnvMapWithItsPath() {
    List<DynamicTest> tests = new ArrayList<>();
    MAPS.forEach((path, put) -> tests.add(DynamicTest.dynamicTest(path, () -> {
      for (String name : reservedSamples()) {
        List<Problem> errors = put.apply(name, "$(touch /tmp/srt-reserved)").stream().filter(Problem::isError).toList();
        assertThat(errors).as("%s.%s", path, name).singleElement().satisfies(p -> {
          assertThat(p.path()).isEqualTo(path + "." + name);
          assertThat(p.message()).startsWith("is reserved: ").isEqualTo("is reserved: " + ReservedEnvNames.reason(name));
        });
      }
    })));
    return tests.stream();
  }

  @Test
  void theFindingsReproIsRejected() {
    // The repro: BASH_ENV is expanded (so its command runs) by every bash the run starts.
    assertThat(MAPS.get("spec.env").apply("BASH_ENV", "$(id > /tmp/x)")).extracting(Problem::describe)
        .containsExactly("spec.env.BASH_ENV: is reserved: bash expands or runs it in every shell of the run");
    assertThat(MAPS.get("spec.backend.env").apply("BASH_ENV", "$(id > /tmp/x)")).extracting(Problem::path)
        .containsExactly("spec.backend.env.BASH_ENV");
  }

  @Test
  void ordinaryNamesAndSrtOperatorsKnobsAreAllowed() {
    for (String name : List.of("HF_HOME", "PYTHONPATH", "NCCL_DEBUG", "SGLANG_TRACE_DIR", "DYN_LOG", "path", "Home", "LANG",
        "TMPDIR", "SRT_EMULATOR_STATE", "SRT_PORT_WAIT", "SRT_STOP_GRACE", "LDX", "SRTX", "BASHFUL")) {
      assertThat(ReservedEnvNames.reason(name)).as(name).isNull();
      MAPS.forEach((path, put) -> assertThat(put.apply(name, "5").stream().filter(Problem::isError)).as("%s.%s", path, name).isEmpty());
    }
  }

  @Test
  void theNumericKnobsTakeOnlyNumbers() {
    // The library uses them in bash arithmetic, which would evaluate a[$(cmd)] as an expression.
    for (String name : List.of("SRT_PORT_WAIT", "SRT_STOP_GRACE")) {
      assertThat(MAPS.get("spec.env").apply(name, "a[$(touch /tmp/x)]")).extracting(Problem::describe)
          .containsExactly("spec.env." + name + ": must be a whole number of seconds");
      assertThat(MAPS.get("spec.env").apply(name, "30").stream().filter(Problem::isError)).isEmpty();
    }
  }

  @Test
  void theNamesTheScriptsSetThemselvesAreReserved() {
    // Every variable the rendered scripts assign or export (srt-lib.sh, ScriptBody, the supervisor).
    for (String name : List.of("RUN_DIR", "SRT_COMPARISON", "SRT_ARM", "SRT_MODE", "SRT_RUN_ID", "SRT_PYTHON", "SRT_HEALTH_TIMEOUT",
        "SRT_HEALTH_INTERVAL", "SRT_HOST_TAG", "SRT_NODE_ADDR", "SRT_NODE_ADDR_0", "SRT_FAILED", "PATH", "CUDA_VISIBLE_DEVICES", "AIPERF_ARTIFACT_DIR")) {
      assertThat(ReservedEnvNames.reason(name)).as(name).isNotNull();
    }
  }

  @Test
  void theConfigReferenceListsEveryReservedNameAndPrefix() throws Exception {
    String doc = Files.readString(Path.of("docs/config-reference.md"));
    int start = doc.indexOf("### Reserved environment names");
    assertThat(start).as("docs/config-reference.md has a section \"Reserved environment names\"").isNotNegative();
    int end = doc.indexOf("\n## ", start);
    String section = doc.substring(start, end < 0 ? doc.length() : end);
    ReservedEnvNames.names().forEach(n -> assertThat(section).as("documents %s", n).contains("`" + n + "`"));
    ReservedEnvNames.prefixes().forEach(p -> assertThat(section).as("documents %s*", p).contains("`" + p + "*`"));
  }
}
