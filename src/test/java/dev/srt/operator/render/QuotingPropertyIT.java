package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Mappers;
import dev.srt.operator.config.Problem;
import dev.srt.operator.plan.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.RunPlan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile strings in engine args, env values, the model path and the served model name reach the
 * processes of a rendered script exactly: the script runs with stub executables on PATH that
 * record the argv and environment they receive.
 */
class QuotingPropertyIT {
  private static final String ALPHABET = "ab Z09'\"$()`;\n\t*?[]\\!{}|&<>#~=%^,.:/-_é漢🙂";

  @TempDir Path dir;

  @TestFactory
  Stream<DynamicTest> hostileValuesArriveVerbatim() {
    Random random = new Random(20261130);
    List<DynamicTest> tests = new ArrayList<>();
    List<String[]> cases = new ArrayList<>();
    cases.add(new String[] {"$(touch pwned)", "`id`; rm -rf /tmp/x", "it's \"quoted\"\nnext line", "*.whl ?[ab]"});
    for (int i = 0; i < 8; i++) {
      cases.add(new String[] {randomString(random, false), randomString(random, true), randomString(random, true), randomString(random, true)});
    }
    for (int i = 0; i < cases.size(); i++) {
      String[] c = cases.get(i);
      tests.add(DynamicTest.dynamicTest("case " + i, () -> runCase(c[0], c[1], c[2], c[3])));
    }
    return tests.stream();
  }

  private void runCase(String pathPart, String servedName, String argValue, String envValue) throws Exception {
    Path caseDir = Files.createTempDirectory(dir, "case");
    Path stubs = Files.createDirectories(caseDir.resolve("bin"));
    Path records = Files.createDirectories(caseDir.resolve("records"));
    Path runDir = Files.createDirectories(caseDir.resolve("run"));
    stub(stubs.resolve("python3"), records);
    stub(stubs.resolve("sgl-router"), records);

    String modelPath = "/models/" + pathPart;
    Map<String, Object> cluster = Map.of("apiVersion", "srt.dev/v1alpha1", "kind", "GpuCluster", "metadata", Map.of("name", "box"),
        "spec", Map.of("mode", "direct", "transport", "local", "workDir", caseDir.resolve("work").toString(),
            "path", List.of(stubs.toString()), "env", Map.of("SRT_FUZZ_CLUSTER", envValue)));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("clusterRef", Map.of("name", "box"));
    spec.put("model", Map.of("path", modelPath, "servedModelName", servedName));
    spec.put("resources", Map.of("aggWorkers", 2, "gpusPerWorker", 4));
    spec.put("backend", Map.of("args", Map.of("page-size", argValue, "enable-metrics", true), "env", Map.of("SRT_FUZZ", envValue)));
    spec.put("healthCheck", Map.of("timeout", "20s", "interval", "1s"));
    spec.put("workload", Map.of("tool", "bench-serving", "args", Map.of("dataset-name", argValue)));
    spec.put("arms", List.of(Map.of("name", "raw", "frontend", Map.of("type", "sgl-router",
        "binary", stubs.resolve("sgl-router").toString(), "args", Map.of("policy", argValue)))));
    Map<String, Object> rc = Map.of("apiVersion", "srt.dev/v1alpha1", "kind", "RouterComparison", "metadata", Map.of("name", "fuzz"), "spec", spec);
    String yaml = Mappers.yaml().writeValueAsString(rc) + "---\n" + Mappers.yaml().writeValueAsString(cluster);

    LoadedResources loaded = LoadedResources.parse("fuzz.yaml", yaml);
    assertThat(loaded.problems().stream().filter(Problem::isError)).as(yaml).isEmpty();
    RunPlan plan = Planner.plan(loaded.comparisons().get(0), loaded.clusters().get(0), "raw", Mode.DIRECT);
    Path script = runDir.resolve("run.sh");
    Files.writeString(script, Scripts.render(plan));

    Bash.Result r = Bash.run(runDir, 120, List.of("bash", script.toString()));
    assertThat(r.code()).as(r.output()).isZero();

    List<Record> seen = readRecords(records);
    for (ProcessSpec expected : List.of(plan.process("worker-0"), plan.process("worker-1"), plan.process("router"), plan.process("benchmark"))) {
      List<String> args = expected.argv().subList(1, expected.argv().size());
      assertThat(seen).as("a process received exactly the argv of %s", expected.name())
          .anySatisfy(rec -> {
            assertThat(rec.argv()).isEqualTo(args);
            expected.env().forEach((k, v) -> assertThat(rec.env()).containsEntry(k, v));
            assertThat(rec.env()).containsEntry("SRT_FUZZ_CLUSTER", envValue);
          });
    }
    assertThat(plan.process("worker-0").argv()).contains(modelPath, servedName, argValue);
    assertThat(plan.process("worker-0").env()).containsEntry("SRT_FUZZ", envValue);
    assertThat(runDir.resolve("pwned")).doesNotExist();
    assertThat(caseDir.resolve("pwned")).doesNotExist();
  }

  record Record(List<String> argv, Map<String, String> env) {}

  /** Records argv and environment (NUL-separated); serving programs then stay up until stopped. */
  private static void stub(Path file, Path records) throws Exception {
    Files.writeString(file, """
        #!/usr/bin/env bash
        case "${1:-}" in
          -c) [ "${3:-}" = summary ] && echo '{}'; exit 0 ;;
          -) cat >/dev/null; exit 0 ;;
        esac
        rec=$(mktemp "%s/rec.XXXXXX")
        printf '%%s\\0' "$@" >"$rec.argv"
        env -0 >"$rec.env"
        mv "$rec" "$rec.done"
        case "${2:-}" in
          sglang.bench_serving) exit 0 ;;
        esac
        exec sleep 600
        """.formatted(records));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static List<Record> readRecords(Path records) throws Exception {
    List<Record> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(records)) {
      for (Path done : files.filter(f -> f.toString().endsWith(".done")).toList()) {
        String base = done.toString().substring(0, done.toString().length() - ".done".length());
        List<String> argv = split(Files.readString(Path.of(base + ".argv"), StandardCharsets.UTF_8));
        Map<String, String> env = new LinkedHashMap<>();
        for (String kv : split(Files.readString(Path.of(base + ".env"), StandardCharsets.UTF_8))) {
          int eq = kv.indexOf('=');
          env.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        out.add(new Record(argv, env));
      }
    }
    return out;
  }

  private static List<String> split(String nulSeparated) {
    List<String> out = new ArrayList<>(List.of(nulSeparated.split("\0", -1)));
    out.remove(out.size() - 1);
    return out;
  }

  private static String randomString(Random random, boolean newlines) {
    int[] points = ALPHABET.codePoints().filter(cp -> newlines || cp != '\n').toArray();
    StringBuilder sb = new StringBuilder();
    int n = 1 + random.nextInt(24);
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(points[random.nextInt(points.length)]);
    }
    return sb.toString();
  }
}
