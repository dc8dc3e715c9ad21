package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An imported srtctl recipe runs: the contract's arm 1 (sgl-router), imported by {@code import},
 * applied on this machine as an emulated GPU host. Its custom benchmark command is srtctl's AIPerf
 * command, unchanged: it finds the router through {@code SRT_FRONTEND_URL}, writes into
 * {@code AIPERF_ARTIFACT_DIR}, and reads the trace named by a variable of the import's environment.
 */
class ImportedRecipesIT {
  static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();
  private static final Pattern RUN_ID = Pattern.compile("submitted run (r[0-9a-f]{8}) ");

  @TempDir Path tmp;
  private final List<String> runIds = new ArrayList<>();

  @AfterEach
  void nothingLeftRunning() {
    System.clearProperty(EmulatedHost.JAR_PROPERTY);
    for (String id : runIds) {
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(ApplyCommandIT.Processes.withRunId(id)).as("processes of run " + id).isEmpty());
    }
  }

  @Test
  void theImportedSglRouterArmRunsItsCustomAiperfCommand() throws IOException {
    assumeThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    System.setProperty(EmulatedHost.JAR_PROPERTY, JAR.toString());
    Path trace = tmp.resolve("agentx.jsonl");
    StringBuilder records = new StringBuilder();
    for (int i = 0; i < 24; i++) {
      // three hash ids are three blocks of 512 tokens: a length of 1025 to 1536, as AIPerf requires
      records.append("{\"timestamp\": ").append(i * 20).append(", \"input_length\": 1100, \"output_length\": 8, \"hash_ids\": [1, 2, ")
          .append(10 + i % 4).append("]}\n");
    }
    Files.writeString(trace, records);
    // The test cannot set its own environment: the recipes get their variables written out, but the
    // trace's, which the benchmark command reads at run time.
    List<String> args = new ArrayList<>(List.of("import"));
    for (String name : List.of("arm1-sgl-router.yaml", "arm2-dynamo-sidecar.yaml")) {
      Path p = tmp.resolve(name);
      Files.writeString(p, Files.readString(Path.of("src/test/resources/import", name))
          .replace("$ROUTER_ARM_MODEL_PATH", "/models/Qwen3-32B-FP8").replace("$ROUTER_ARM_SGLANG_SOURCE", "/src/sglang")
          .replace("--input-file \"$ROUTER_ARM_TRACE\"", "--input-file " + trace));
      args.add(p.toString());
    }
    Path comparison = tmp.resolve("comparison.yaml");
    args.addAll(List.of("--name", "imported", "--out-file", comparison.toString()));
    Run imported = run(args);
    assertThat(imported.code()).as(imported.toString()).isZero();

    Path workDir = tmp.resolve("host");
    Path cluster = tmp.resolve("cluster.yaml");
    Files.writeString(cluster, """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata:
          name: h100-host
          annotations:
            srt.dev/emulated-host: "true"
        spec:
          mode: direct
          transport: local
          workDir: %s
          gpusPerNode: 8
          pollInterval: 500ms
        """.formatted(workDir));
    Run r = run(List.of("apply", "-f", comparison.toString(), "--cluster", cluster.toString(), "--arm", "router-arm1-sgl-router"));
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).contains("1/1 arms succeeded");
    Path runDir;
    try (var dirs = Files.list(workDir.resolve("default/imported/router-arm1-sgl-router"))) {
      runDir = dirs.findFirst().orElseThrow();
    }
    assertThat(runDir.resolve("results/aiperf/agentx_aiperf.json")).as("AIPerf wrote into AIPERF_ARTIFACT_DIR").isNotEmptyFile();
    assertThat(Files.readString(runDir.resolve("logs/benchmark.log"))).contains("requests completed");
  }

  record Run(int code, String out, String err) {}

  private Run run(List<String> argv) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      code = Main.run(argv.toArray(String[]::new));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    Run r = new Run(code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
    Matcher m = RUN_ID.matcher(r.out());
    while (m.find()) {
      runIds.add(m.group(1));
    }
    return r;
  }
}
