package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.emulator.Json;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two policies of the real SGLang Model Gateway (sglang-router 0.3.2), cache_aware against
 * round_robin, over the same two emulated engines, measured by the real AIPerf 0.13.0: `apply`
 * runs both arms twice on this machine as an emulated GPU host, and the report compares them.
 * What is asserted is that the real programs ran (their processes, their facts, their output),
 * that the engines' own counters reached the report as each arm's cache hit rate, and that the
 * comparison says a verdict or why it has none; never which policy is faster, which emulated
 * timing on a busy machine cannot show. Runs use the scripts' fixed ports, one after another.
 */
class RealGatewayPoliciesIT {
  private static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();
  @TempDir Path tmp;
  private Path workDir;

  @RegisterExtension
  final CliSession cli = new CliSession();

  @BeforeEach
  void setUp() {
    RealProgramsEnv.require();
    assumeThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    System.setProperty(EmulatedHost.JAR_PROPERTY, JAR.toString());
    workDir = tmp.resolve("host");
  }

  @AfterEach
  void nothingLeftRunning() {
    System.clearProperty(EmulatedHost.JAR_PROPERTY);
    for (String id : cli.runIds()) {
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
          assertThat(ApplyCommandIT.Processes.withRunId(id)).as("processes of run " + id).isEmpty());
    }
  }

  @Test
  void cacheAwareAgainstRoundRobinWithTheRealGatewayAndTheRealAiperf() throws Exception {
    Path comparison = Files.writeString(tmp.resolve("gateway-policies.yaml"), """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata:
          name: gateway-policies
        spec:
          clusterRef: {name: local-emulated}
          model: {path: /models/Qwen3-32B-FP8, servedModelName: Qwen/Qwen3-32B-FP8}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 1}
          backend:
            type: sglang
            args: {tensor-parallel-size: 1, page-size: 16, enable-metrics: true}
          observability: {enabled: true}
          workload:
            tool: aiperf
            args: {request-count: 24, concurrency: 4, prompt-prefix-pool-size: 4, prompt-prefix-length: 128,
                   synthetic-input-tokens-mean: 32, output-tokens-mean: 8}
          arms:
          - name: round-robin
            frontend: {type: sgl-model-gateway, args: {policy: round_robin}}
          - name: cache-aware
            frontend: {type: sgl-model-gateway, args: {policy: cache_aware}}
          execution: {order: declared, repetitions: 2, baseline: round-robin}
        """);
    Path cluster = Files.writeString(tmp.resolve("cluster.yaml"), """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata:
          name: local-emulated
          annotations:
            srt.dev/emulated-host: "true"
        spec:
          mode: direct
          transport: local
          workDir: %s
          gpusPerNode: 8
          pollInterval: 500ms
        """.formatted(workDir));

    CliSession.Result r = cli.run("apply", "-f", comparison.toString(), "--cluster", cluster.toString());

    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out().lines().findFirst().orElseThrow()).as("apply's first line says which programs are real")
        .contains("real aiperf 0.13.0, sglang_router.launch_router 0.3.2");
    List<Path> runs = new ArrayList<>();
    for (String arm : List.of("round-robin", "cache-aware")) {
      try (Stream<Path> dirs = Files.list(workDir.resolve("default/gateway-policies").resolve(arm))) {
        runs.addAll(dirs.filter(Files::isDirectory).toList());
      }
    }
    assertThat(runs).hasSize(4);
    for (Path run : runs) {
      Map<String, String> facts = facts(run);
      assertThat(facts).as(run.toString())
          .containsEntry("router program sglang_router.launch_router", "real 0.3.2")
          .containsEntry("node 0 program aiperf", "real 0.13.0")
          .containsEntry("router package sglang-router", "0.3.2")
          .containsEntry("workload tool version", "aiperf 0.13.0")
          .containsEntry("engines random seed", "42");
      // the real gateway's own log and metric names, not the stand-in's
      assertThat(Files.readString(run.resolve("logs/router.log"))).doesNotContain("(emulated)");
      assertThat(Files.readString(run.resolve("results/metrics-after.txt"))).contains("smg_").contains("sglang:cached_tokens_total");
      JsonNode export;
      try (Stream<Path> files = Files.list(run.resolve("results/aiperf"))) {
        export = Json.parse(Files.readString(files.filter(f -> f.getFileName().toString().endsWith("_aiperf.json")).findFirst().orElseThrow()));
      }
      assertThat(export.path("request_count").path("avg").asDouble()).as("the real AIPerf's summary").isEqualTo(24.0);
    }

    JsonNode report = Json.parse(cli.run("report", "-f", comparison.toString(), "--cluster", cluster.toString(), "-o", "json").out());
    for (JsonNode arm : report.path("arms")) {
      assertThat(arm.path("runs")).hasSize(2).allSatisfy(run -> {
        assertThat(run.path("phase").asText()).isEqualTo("Succeeded");
        // the cache hit rate the engines saw, from their own counters around the benchmark
        assertThat(run.path("results").path("engine_cache_hit_rate").isNumber()).as(run.toString()).isTrue();
      });
    }
    JsonNode verdicts = report.path("verdicts");
    assertThat(verdicts).as("cache-aware is compared with round-robin").isNotEmpty().allSatisfy(v -> {
      assertThat(v.path("baseline").asText()).isEqualTo("round-robin");
      assertThat(v.path("verdict").asText()).isIn("better", "worse", "inconclusive", "equivalent", "not-comparable");
      if (v.path("verdict").asText().equals("not-comparable")) {
        assertThat(v.path("reason").asText()).as("a refusal says why").isNotBlank();
      }
    });
  }

  private static Map<String, String> facts(Path run) throws Exception {
    Map<String, String> m = new HashMap<>();
    for (JsonNode f : Json.parse(Files.readString(run.resolve("facts.json"))).path("facts")) {
      m.put(f.path("name").asText(), f.has("value") ? f.path("value").asText() : "unknown: " + f.path("unknown").asText());
    }
    return m;
  }
}
