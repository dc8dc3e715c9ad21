package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.Problem;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.render.Scripts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finding 9 of issue 8 on a real host: a rendered direct-mode run, submitted by DirectBackend
 * through the local transport, with stand-in programs (python3, sgl-router) that record their argv
 * and the SHA-256 of HF_TOKEN. The value, hostile on purpose, reaches every process through its
 * environment, while no command line (of the host layer or of any process on the machine), no file
 * of the run directory but secret.env and not the script holds it; the run directory is 0700, the
 * script and secret.env 0600.
 */
class SecretEnvironmentIT {
  @TempDir Path dir;

  private final List<String> commandLines = new CopyOnWriteArrayList<>();
  private final LocalTransport local = new LocalTransport();
  /** The local transport, keeping every command line it runs. */
  private final Transport transport = new Transport() {
    @Override
    public ExecResult exec(String commandLine, byte[] stdin, Duration timeout) throws HostException {
      commandLines.add(commandLine);
      return local.exec(commandLine, stdin, timeout);
    }

    @Override
    public String describe() {
      return local.describe();
    }

    @Override
    public void close() {
      local.close();
    }
  };
  private DirectBackend backend;
  private RunRef run;

  @AfterEach
  void stopTheRun() throws HostException {
    if (backend != null && run != null) {
      backend.cancel(run, null);
    }
  }

  @Test
  void theRunSeesTheValueThroughItsEnvironmentOnly() throws Exception {
    String marker = "hf" + UUID.randomUUID().toString().replace("-", "");
    String value = marker + "'$(touch " + dir + "/pwned)'\"`id`\" \n second line é";
    Path stubs = Files.createDirectories(dir.resolve("bin"));
    Path records = Files.createDirectories(dir.resolve("records"));
    Path release = dir.resolve("release");
    stub(stubs.resolve("python3"), records, release);
    stub(stubs.resolve("sgl-router"), records, release);
    Path work = dir.resolve("work");

    RunPlan plan = plan(stubs, work);
    assertThat(plan.secretEnv()).containsExactly("HF_TOKEN");
    String script = Scripts.render(plan);
    backend = new DirectBackend(transport, work.toString(), Duration.ofSeconds(3));
    run = new RunRef("default", "secret", "raw", "r" + UUID.randomUUID().toString().substring(0, 8));
    RunDirectory runDir = backend.runDirectory(run);

    backend.submit(run, script, SecretEnvFile.of(Map.of("HF_TOKEN", value)));

    // While every process of the run is alive (the benchmark waits for the release file): no argv holds the value.
    Path exitCode = Path.of(runDir.exitCode());
    Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> benchmarkStarted(records) || Files.exists(exitCode));
    assertThat(benchmarkStarted(records)).as("the benchmark started; the script's log:\n%s", Files.readString(Path.of(runDir.scriptLog())))
        .isTrue();
    assertThat(processesWhoseCommandLineHolds(stubs.toString())).as("the scan sees the run's benchmark").isNotEmpty();
    assertThat(processesWhoseCommandLineHolds(marker)).as("processes with the value in their argv").isEmpty();
    Files.writeString(release, "");
    Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> Files.exists(exitCode));
    assertThat(Files.readString(exitCode).strip()).as(Files.readString(Path.of(runDir.scriptLog()))).isEqualTo("0");

    String hash = Hashes.sha256(value);
    List<String> hashes = recorded(records, ".hash");
    assertThat(recordedArgv(records)).hasSize(4);
    assertThat(hashes).as("worker-0, worker-1, the router and the benchmark each saw HF_TOKEN").hasSize(4).containsOnly(hash);

    assertThat(mode(Path.of(runDir.path()))).isEqualTo("rwx------");
    assertThat(mode(Path.of(runDir.script()))).isEqualTo("rw-------");
    assertThat(mode(Path.of(runDir.secretEnv()))).isEqualTo("rw-------");
    assertThat(filesHolding(Path.of(runDir.path()), marker)).containsExactly(Path.of(runDir.secretEnv()));
    assertThat(Files.readString(Path.of(runDir.script()))).isEqualTo(script).doesNotContain(marker);
    assertThat(commandLines).as("command lines sent to the host").isNotEmpty().noneMatch(c -> c.contains(marker));
    assertThat(dir.resolve("pwned")).doesNotExist();
  }

  private static RunPlan plan(Path stubs, Path work) throws Exception {
    Map<String, Object> cluster = Map.of("apiVersion", "srt.dev/v1alpha1", "kind", "GpuCluster", "metadata", Map.of("name", "box"),
        "spec", Map.of("mode", "direct", "transport", "local", "workDir", work.toString(), "path", List.of(stubs.toString())));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("clusterRef", Map.of("name", "box"));
    spec.put("model", Map.of("path", "/models/m"));
    spec.put("resources", Map.of("aggWorkers", 2, "gpusPerWorker", 4));
    spec.put("backend", Map.of("args", Map.of("tensor-parallel-size", 4)));
    spec.put("healthCheck", Map.of("timeout", "20s", "interval", "1s"));
    spec.put("workload", Map.of("tool", "bench-serving"));
    spec.put("secretEnv", List.of(Map.of("name", "HF_TOKEN", "secretKeyRef", Map.of("name", "hf-token", "key", "token"))));
    // The router is sgl-router from PATH (the stub): planned directly, since the validator refuses,
    // on a direct host, an sgl-router that is not built from source.
    spec.put("arms", List.of(Map.of("name", "raw", "frontend", Map.of("type", "sgl-router"))));
    Map<String, Object> rc = Map.of("apiVersion", "srt.dev/v1alpha1", "kind", "RouterComparison", "metadata", Map.of("name", "secret"),
        "spec", spec);
    String yaml = Mappers.yaml().writeValueAsString(rc) + "---\n" + Mappers.yaml().writeValueAsString(cluster);
    LoadedResources loaded = LoadedResources.parse("secret.yaml", yaml);
    assertThat(loaded.problems().stream().filter(Problem::isError)).as(yaml).singleElement()
        .satisfies(p -> assertThat(p.path()).as("the one refusal is the PATH router's").isEqualTo("spec.arms[0].frontend.source"));
    return Planner.plan(loaded.comparisons().get(0), loaded.clusters().get(0), "raw", Mode.DIRECT);
  }

  /**
   * Probes succeed (an empty summary for the results); a serving program records its argv and the
   * SHA-256 of HF_TOKEN, then stays up until stopped; the benchmark waits for {@code release}.
   */
  private static void stub(Path file, Path records, Path release) throws IOException {
    Files.writeString(file, """
        #!/usr/bin/env bash
        case "${1:-}" in
          -c) [ "${3:-}" = summary ] && echo '{}'; exit 0 ;;
          -) cat >/dev/null; exit 0 ;;
        esac
        rec=$(mktemp "%1$s/rec.XXXXXX")
        printf '%%s\\0' "$0" "$@" >"$rec.argv"
        printf '%%s' "${HF_TOKEN-unset}" | sha256sum | cut -d' ' -f1 >"$rec.hash"
        mv "$rec" "$rec.done"
        if [ "${2:-}" = sglang.benchmark.serving ]; then
          while [ ! -e %2$s ]; do sleep 0.1; done
          exit 0
        fi
        exec sleep 600
        """.formatted(records, release));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static boolean benchmarkStarted(Path records) throws IOException {
    return recordedArgv(records).stream().anyMatch(a -> a.contains("sglang.benchmark.serving"));
  }

  private static List<String> recordedArgv(Path records) throws IOException {
    return recorded(records, ".argv");
  }

  /** The contents of the finished records' files with this suffix. */
  private static List<String> recorded(Path records, String suffix) throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(records)) {
      for (Path done : files.filter(f -> f.toString().endsWith(".done")).toList()) {
        String base = done.toString().substring(0, done.toString().length() - ".done".length());
        out.add(Files.readString(Path.of(base + suffix), StandardCharsets.UTF_8).strip());
      }
    }
    return out;
  }

  /** Every process on this machine whose argv (what ps shows) contains {@code text}. */
  private static List<String> processesWhoseCommandLineHolds(String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.filter(p -> p.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String cmdline = new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
          if (cmdline.contains(text)) {
            out.add(p.getFileName() + ": " + cmdline.replace('\0', ' '));
          }
        } catch (IOException e) {
          // The process ended, or is not ours to read.
        }
      }
    }
    return out;
  }

  private static List<Path> filesHolding(Path root, String text) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).filter(f -> {
        try {
          return new String(Files.readAllBytes(f), StandardCharsets.UTF_8).contains(text);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).toList();
    }
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
