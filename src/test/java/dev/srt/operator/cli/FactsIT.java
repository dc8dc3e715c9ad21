package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.RunFact;
import dev.srt.operator.host.DirectBackend;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.host.LocalTransport;
import dev.srt.operator.host.ResultsFetch;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.results.RunResults;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.FactChecks;
import dev.srt.operator.verdict.Verdicts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

/**
 * Facts of real runs on this machine as an emulated GPU host ({@code apply}, local transport,
 * direct mode): two sgl-router policies over the same engines. Unmodified, every held-constant
 * fact of the two arms' runs is equal; then the model's tokenizer.json changes before the second
 * arm runs again, and its verdicts are not comparable, naming the file with both hashes; then the
 * node's GPU driver differs instead, and the verdicts name the driver. The runs' facts are read
 * from their run directories by the host layer, with their results, as {@code report} reads them.
 */
class FactsIT {
  static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();
  private static final Pattern RUN_ID = Pattern.compile("submitted run (r[0-9a-f]{8}) ");
  private static final String TOKENIZER = "model tokenizer.json sha256";
  private static final String DRIVER = "node 0 GPU driver";

  @TempDir Path tmp;
  private Path workDir;
  private Path model;
  private Path comparison;
  private final List<String> runIds = new ArrayList<>();
  private final StringBuilder transcript = new StringBuilder();

  record Result(int code, String out, String err) {}

  @RegisterExtension
  final TestWatcher printTranscriptOnFailure = new TestWatcher() {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      System.out.println(transcript);
    }
  };

  @BeforeEach
  void files() throws Exception {
    assumeThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    System.setProperty(EmulatedHost.JAR_PROPERTY, JAR.toString());
    workDir = tmp.resolve("host");
    model = Files.createDirectories(tmp.resolve("model"));
    Files.writeString(model.resolve("config.json"), "{\"architectures\": [\"Qwen3ForCausalLM\"], \"num_hidden_layers\": 64}\n");
    Files.writeString(model.resolve("tokenizer.json"), "{\"version\": \"1.0\", \"model\": {\"type\": \"BPE\"}}\n");
    comparison = tmp.resolve("comparison.yaml");
    Files.writeString(comparison, """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: facts}
        spec:
          clusterRef: {name: local-emulated}
          model: {path: %s, servedModelName: Qwen/Qwen3-32B-FP8}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
          backend:
            type: sglang
            args: {tensor-parallel-size: 4, page-size: 64, enable-metrics: true, mem-fraction-static: 0.88}
            env: {SRT_EMULATOR_SPEED: "4"}
            kvEvents: {publisher: zmq, topic: kv-events}
          observability: {enabled: true}
          healthCheck: {interval: 1s}
          workload:
            tool: bench-serving
            args: {dataset-name: generated-shared-prefix, num-prompts: 16, gsp-num-groups: 4}
          execution: {baseline: cache-aware}
          arms:
          - name: cache-aware
            frontend: {type: sgl-router, source: /src/sglang/experimental/sgl-router, args: {policy: cache_aware}}
          - name: round-robin
            frontend: {type: sgl-router, source: /src/sglang/experimental/sgl-router, args: {policy: round_robin}}
        """.formatted(model));
  }

  @AfterEach
  void nothingLeftRunning() {
    System.clearProperty(EmulatedHost.JAR_PROPERTY);
    for (String id : runIds) {
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(ApplyCommandIT.Processes.withRunId(id)).as("processes of run " + id).isEmpty());
    }
  }

  private Path cluster(String env) throws Exception {
    Path file = tmp.resolve("cluster.yaml");
    Files.writeString(file, """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata:
          name: local-emulated
          annotations: {srt.dev/emulated-host: "true"}
        spec:
          mode: direct
          transport: local
          workDir: %s
          gpusPerNode: 8
          pollInterval: 500ms
          env: {%s}
        """.formatted(workDir, env));
    return file;
  }

  private Result run(String... argv) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      code = Main.run(argv);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    Result r = new Result(code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
    Matcher m = RUN_ID.matcher(r.out());
    while (m.find()) {
      runIds.add(m.group(1));
    }
    transcript.append("$ srt-operator ").append(String.join(" ", argv)).append('\n').append(r.out()).append(r.err());
    return r;
  }

  private void apply(String env, String... more) throws Exception {
    List<String> argv = new ArrayList<>(List.of("apply", "-f", comparison.toString(), "--cluster", cluster(env).toString()));
    argv.addAll(List.of(more));
    Result r = run(argv.toArray(String[]::new));
    assertThat(r.code()).as(r.toString()).isZero();
  }

  /** The newest run of each arm with its results and facts, read from the host as {@code report} reads them. */
  private Map<String, List<ArmRun>> newestRuns() throws Exception {
    LocalTransport transport = new LocalTransport();
    DirectBackend backend = new DirectBackend(transport, workDir.toString());
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    LatestRuns.find(transport, workDir.toString(), "default", "facts", List.of("cache-aware", "round-robin"), 1).forEach((arm, found) -> {
      List<ArmRun> list = new ArrayList<>();
      for (LatestRuns.Found f : found) {
        try {
          RunResults read = ResultsFetch.read(backend, f.run());
          ArmRun r = new ArmRun();
          r.runId = f.run().runId();
          r.repetition = 1;
          r.phase = "Succeeded";
          r.results = read.asStatus();
          r.facts = read.facts();
          list.add(r);
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
      runs.put(arm, list);
    });
    return runs;
  }

  private static String fact(ArmRun run, String name) {
    return run.facts.facts.stream().filter(f -> f.name.equals(name)).map(f -> f.value).findFirst().orElse(null);
  }

  @Test
  void verdictsCompareOnlyRunsWhoseHeldConstantFactsAreEqualAndNameEachOneThatIsNot() throws Exception {
    apply("");
    Map<String, List<ArmRun>> runs = newestRuns();
    ArmRun base = runs.get("cache-aware").get(0);
    ArmRun other = runs.get("round-robin").get(0);
    assertThat(base.facts.unknown).as("facts of %s", base.runId).isNull();
    assertThat(base.facts.unknownCount).as("%s", base.facts.facts).isZero();
    assertThat(fact(base, TOKENIZER)).isEqualTo(Hashes.sha256(Files.readString(model.resolve("tokenizer.json"))));
    assertThat(fact(base, "model tokenizer_config.json sha256")).isEqualTo("absent");
    assertThat(fact(base, DRIVER)).isEqualTo("570.86.15");
    assertThat(fact(base, "node 0 package sglang")).isEqualTo("0.5.18+emulated");
    assertThat(fact(base, "engine worker-1 server_args.mem_fraction_static")).isEqualTo("0.88");
    assertThat(fact(base, "router version")).isEqualTo("sgl-router 0.2.4+emulated");
    assertThat(fact(base, "workload tool version")).isEqualTo("sglang 0.5.18+emulated");
    assertThat(Files.readString(workDir.resolve("default/facts/cache-aware/" + base.runId + "/events.jsonl")))
        .contains("\"event\":\"facts\",\"file\":\"facts.json\",\"unknown\":0");

    ComparisonReport equal = ComparisonReport.of("facts", runs, "cache-aware", 0.01);
    FactChecks.Check check = equal.factChecks.get(0);
    assertThat(check.differing).isEmpty();
    assertThat(check.unknown).isEmpty();
    assertThat(check.equal).as("every held-constant fact equal").isGreaterThan(40);
    assertThat(equal.verdicts).isNotEmpty().allSatisfy(v -> assertThat(String.valueOf(v.reason)).doesNotContain("held-constant"));
    Result same = run("diff", "-f", comparison.toString(), "--cluster", cluster("").toString(), "--runs", base.runId, other.runId);
    assertThat(same.code()).as(same.toString()).isZero();
    assertThat(same.out()).contains("0 held-constant facts differ, " + check.equal + " equal, 0 unknown");

    // The tokenizer changes before the second arm runs again.
    String before = fact(base, TOKENIZER);
    Files.writeString(model.resolve("tokenizer.json"), "{\"version\": \"1.1\", \"model\": {\"type\": \"BPE\"}}\n");
    apply("", "--arm", "round-robin");
    runs = newestRuns();
    String after = fact(runs.get("round-robin").get(0), TOKENIZER);
    assertThat(after).isNotEqualTo(before);
    ComparisonReport tokenizer = ComparisonReport.of("facts", runs, "cache-aware", 0.01);
    assertThat(tokenizer.verdicts).isNotEmpty().allSatisfy(v -> {
      assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
      assertThat(v.reason).isEqualTo("held-constant facts differ: model tokenizer.json sha256 " + before.substring(0, 8)
          + "… (run 1 of cache-aware) vs " + after.substring(0, 8) + "… (run 1 of round-robin)");
    });
    Result diff = run("diff", "-f", comparison.toString(), "--cluster", cluster("").toString(), "--runs", base.runId,
        "round-robin/" + runs.get("round-robin").get(0).runId);
    assertThat(diff.code()).as(diff.toString()).isEqualTo(RunFactsDiff.DIFFERENT);
    assertThat(diff.out()).containsPattern("≠ +model tokenizer.json sha256 +held-constant +" + before.substring(0, 8) + "… +"
        + after.substring(0, 8) + "…").contains("1 held-constant fact differ");

    // The tokenizer is back; the node's driver is another one for the second arm's run.
    Files.writeString(model.resolve("tokenizer.json"), "{\"version\": \"1.0\", \"model\": {\"type\": \"BPE\"}}\n");
    apply("SRT_EMULATOR_NVIDIA_DRIVER: 535.104.05", "--arm", "round-robin");
    runs = newestRuns();
    ComparisonReport driver = ComparisonReport.of("facts", runs, "cache-aware", 0.01);
    assertThat(driver.verdicts).isNotEmpty().allSatisfy(v -> assertThat(v.reason)
        .isEqualTo("held-constant facts differ: node 0 GPU driver 570.86.15 (run 1 of cache-aware) vs 535.104.05 (run 1 of round-robin)"));
    assertThat(FactChecks.message(driver.factChecks)).contains("round-robin against cache-aware: node 0 GPU driver 570.86.15");
    assertThat(runs.get("round-robin").get(0).facts.facts).extracting((RunFact f) -> f.name).contains(TOKENIZER);
  }
}
