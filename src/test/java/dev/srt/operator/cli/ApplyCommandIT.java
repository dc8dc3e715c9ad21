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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;
import dev.srt.operator.testinfra.TestHosts;

/**
 * {@code srt-operator apply} on this machine as an emulated GPU host (local transport, direct
 * mode): the example comparison start to finish, {@code --bash}, a worker that never becomes
 * healthy, and Ctrl-C. Runs use the scripts' fixed ports, so they never overlap: each test waits
 * for its runs to end.
 */
class ApplyCommandIT {
  static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();
  static final Path COMPARISON = Path.of("examples/router-comparison.yaml");
  private static final Pattern RUN_ID = Pattern.compile("submitted run (r[0-9a-f]{8}) ");

  @TempDir Path tmp;
  private Path workDir;
  private final List<String> runIds = new ArrayList<>();

  record Result(int code, String out, String err) {}

  @BeforeEach
  void jar() {
    assumeThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    System.setProperty(EmulatedHost.JAR_PROPERTY, JAR.toString());
    workDir = tmp.resolve("host");
  }

  @AfterEach
  void nothingLeftRunning() {
    System.clearProperty(EmulatedHost.JAR_PROPERTY);
    for (String id : runIds) {
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
          assertThat(Processes.withRunId(id)).as("processes of run " + id).isEmpty());
    }
  }

  /** What the commands printed: shown only when the test fails (most assertions carry it too). */
  private final StringBuilder transcript = new StringBuilder();

  @RegisterExtension
  final TestWatcher printTranscriptOnFailure = new TestWatcher() {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      System.out.println(transcript);
    }
  };

  private Path cluster(String extraSpec) throws IOException {
    Path file = tmp.resolve("cluster.yaml");
    Files.writeString(file, """
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
        %s""".formatted(workDir, extraSpec.indent(2)));
    return file;
  }

  /**
   * The example with a quarter of its prompt groups (the same prefix structure, a quarter of the
   * requests), for tests that judge how an arm runs rather than its numbers.
   */
  private Path quicker(String example) throws IOException {
    String yaml = Files.readString(Path.of(example));
    assertThat(yaml).contains("num-prompts: 1024}");
    Path file = tmp.resolve("quicker-" + Path.of(example).getFileName());
    Files.writeString(file, yaml.replace("num-prompts: 1024}", "num-prompts: 1024, gsp-num-groups: 16}"));
    return file;
  }

  private Result report(String... args) {
    return run("report", args);
  }

  private Result apply(String... args) {
    return run("apply", args);
  }

  private Result run(String command, String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      List<String> argv = new ArrayList<>(List.of(command));
      argv.addAll(List.of(args));
      code = Main.run(argv.toArray(String[]::new));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    Result r = new Result(code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
    Matcher m = RUN_ID.matcher(r.out());
    while (m.find()) {
      runIds.add(m.group(1));
    }
    transcript.append("$ srt-operator ").append(command).append(' ').append(String.join(" ", args)).append('\n').append(r.out());
    return r;
  }

  @Test
  void runsAllThreeArmsToSuccessAndPrintsASummary() throws Exception {
    Result r = apply("-f", COMPARISON.toString(), "--cluster", cluster("").toString());

    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).contains("emulated GPU host").contains("3/3 arms succeeded");
    assertThat(runIds).hasSize(3);
    List<String> table = r.out().lines().dropWhile(l -> !l.strip().startsWith("ARM ")).toList();
    assertThat(table.get(0)).contains("RUNS", "PHASE", "REQ/S", "MEAN TTFT", "P99 TTFT", "CACHE HIT", "FAILED REQS", "RUN DIR");
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      assertThat(table).anySatisfy(row -> {
        String[] cells = row.strip().split("\\s+");
        assertThat(cells).startsWith(arm, "1/1", "Succeeded");
        // the engines' own prefix-cache hit rate, measured around the benchmark
        assertThat(cells).anySatisfy(c -> assertThat(c).matches("[0-9]+\\.[0-9]%"));
        assertThat(cells[cells.length - 1]).startsWith(workDir.resolve("default/qwen3-32b-routers/" + arm).toString());
      });
    }
    // One run per arm: the verdicts say so rather than compare single numbers.
    assertThat(r.out()).contains("against sgl-router (difference of the means with its 95% interval; p-values Holm-adjusted):")
        .contains("not-comparable: dynamo-kv has 1 succeeded run with this metric (2 are needed)")
        .contains("one run per arm gives differences, not verdicts: set spec.execution.repetitions");
    // live lines: the phases each arm went through, in order
    assertThat(r.out().lines().filter(l -> l.startsWith("sgl-router ")).map(l -> l.split("\\s+")[1]).distinct().toList())
        .containsSubsequence("Starting", "Benchmarking", "Succeeded");
    Path results = Files.list(workDir.resolve("default/qwen3-32b-routers/dynamo-kv-policy")).findFirst().orElseThrow()
        .resolve("results/bench-serving.jsonl");
    assertThat(results).isNotEmptyFile();
    assertThat(results.getParent().getParent().resolve("logs/etcd.log")).as("Dynamo's discovery: etcd by default").isNotEmptyFile();

    // Later, from the run directories alone: the same rows, and the report as JSON.
    Result later = report("-f", COMPARISON.toString(), "--cluster", cluster("").toString());
    assertThat(later.code()).as(later.toString()).isZero();
    List<String> reported = later.out().lines().dropWhile(l -> !l.strip().startsWith("ARM ")).toList();
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      String applied = table.stream().filter(l -> l.strip().startsWith(arm + " ")).findFirst().orElseThrow();
      assertThat(reported).anySatisfy(row -> assertThat(row.strip()).isEqualTo(applied.strip()));
    }
    Result json = report("-f", COMPARISON.toString(), "--cluster", cluster("").toString(), "-o", "json", "--arm", "dynamo-kv-policy");
    assertThat(json.code()).as(json.toString()).isZero();
    var report = dev.srt.operator.emulator.Json.parse(json.out());
    assertThat(report.path("comparison").asText()).isEqualTo("qwen3-32b-routers");
    var run = report.path("arms").get(0).path("runs").get(0);
    assertThat(report.path("arms").get(0).path("name").asText()).isEqualTo("dynamo-kv-policy");
    assertThat(run.path("phase").asText()).isEqualTo("Succeeded");
    assertThat(run.path("repetition").asInt()).isEqualTo(1);
    assertThat(run.path("results").path("engine_cache_hit_rate").asDouble()).isBetween(0.0, 1.0);
    assertThat(run.path("results").path("failed").isIntegralNumber()).as("failed requests are counted: %s", run).isTrue();
    // the client's numbers are those of bench_serving's row in the run's own result file
    var row = dev.srt.operator.emulator.Json.parse(Files.readAllLines(results).stream().filter(l -> !l.isBlank())
        .reduce((a, b) -> b).orElseThrow());
    assertThat(run.path("results").path("request_throughput").asDouble()).isEqualTo(row.path("request_throughput").asDouble());
    assertThat(run.path("results").path("p99_ttft_ms").asDouble()).isEqualTo(row.path("p99_ttft_ms").asDouble());
    assertThat(run.path("runDir").asText()).isEqualTo(results.getParent().getParent().toString());
    assertThat(report.path("arms").get(0).path("summary").path("n").asInt()).isEqualTo(1);

    // The report people look at: one self-contained page, and the same tables in Markdown.
    Path page = tmp.resolve("report.html");
    Result pretty = report("-f", COMPARISON.toString(), "--cluster", cluster("").toString(), "-o", "markdown", "--html", page.toString());
    assertThat(pretty.code()).as(pretty.toString()).isZero();
    assertThat(pretty.out()).contains("## Router comparison qwen3-32b-routers", "### Verdicts against sgl-router", "### Runs");
    for (String runId : runIds) {
      assertThat(pretty.out()).contains(runId);
    }
    var dom = org.jsoup.Jsoup.parse(Files.readString(page));
    assertThat(dom.select("svg")).isNotEmpty();
    assertThat(dom.select("script")).isEmpty();
    assertThat(dom.text()).contains("qwen3-32b-routers", "sgl-router", "dynamo-kv-policy", "/models/Qwen3-32B-FP8");
    // numbers from the emulated host are labelled so on every page, never passed off as GPUs'
    assertThat(pretty.out()).contains("not GPUs; compare the arms");
    assertThat(dom.text()).contains("not GPUs; compare the arms");
    assertThat(later.out()).contains("note: these runs were made on the emulated GPU host");
    // the arms' latency distributions, from the requests each run recorded
    assertThat(dom.select("figure.chart[data-kind=cdf]").eachAttr("data-metric")).containsExactly("ttft_cdf", "itl_cdf");
    assertThat(dom.select("figure.chart[data-kind=cdf] polyline.curve")).hasSize(6);
  }

  /**
   * Runs that outlive the terminal: {@code apply --detach} queues every run in order and returns;
   * {@code status} shows them; {@code apply} again watches them instead of submitting (one job per
   * run); {@code wait} afterwards finds nothing in flight and gives apply's summary and exit status.
   */
  @Test
  void detachedRunsQueueInOrderAndApplyAgainWatchesThemInsteadOfSubmitting() throws Exception {
    String yaml = Files.readString(Path.of("examples/sgl-router-policies.yaml"))
        .replace("repetitions: 3", "repetitions: 2").replace("num-prompts: 512}", "num-prompts: 512, gsp-num-groups: 8}");
    assertThat(yaml).contains("repetitions: 2").contains("gsp-num-groups: 8");
    Path comparison = tmp.resolve("policies.yaml");
    Files.writeString(comparison, yaml);
    String cluster = cluster("").toString();

    Result detached = apply("-f", comparison.toString(), "--cluster", cluster, "--arm", "round-robin", "--detach");
    assertThat(detached.code()).as(detached.toString()).isZero();
    assertThat(runIds).hasSize(2);
    assertThat(detached.out()).contains("round-robin  run 1/2  submitted run " + runIds.get(0))
        .containsPattern("run 2/2  submitted run " + runIds.get(1) + " as job \\d+ \\(after job \\d+\\)")
        .contains("detached: 2 run(s)");

    Result status = run("status", "-f", comparison.toString(), "--cluster", cluster, "--arm", "round-robin", "-o", "json");
    assertThat(status.code()).as(status.toString()).isZero();
    var json = dev.srt.operator.emulator.Json.parse(status.out());
    assertThat(json.path("arms").get(0).path("runs")).extracting(r -> r.path("runId").asText()).containsExactlyElementsOf(runIds);

    // apply again: the runs are watched, not submitted again
    Result again = apply("-f", comparison.toString(), "--cluster", cluster, "--arm", "round-robin");
    assertThat(again.code()).as(again.toString()).isZero();
    assertThat(again.out()).contains("run(s) in flight").contains("nothing submitted").contains("found run " + runIds.get(1))
        .doesNotContain("submitted run");
    try (Stream<Path> dirs = Files.list(workDir.resolve("default/sgl-router-policies/round-robin"))) {
      assertThat(dirs.map(d -> d.getFileName().toString())).as("one run directory, one job, per run")
          .containsExactlyInAnyOrderElementsOf(runIds);
    }
    // in order: the second began after the first had ended
    Path runs = workDir.resolve("default/sgl-router-policies/round-robin");
    long firstEnded = Files.getLastModifiedTime(runs.resolve(runIds.get(0)).resolve("exit-code")).toMillis();
    String secondStart = Files.readAllLines(runs.resolve(runIds.get(1)).resolve("events.jsonl")).get(0);
    var started = java.time.Instant.parse(dev.srt.operator.emulator.Json.parse(secondStart).path("ts").asText());
    assertThat(started.toEpochMilli()).as("the second run started after the first ended").isGreaterThanOrEqualTo(firstEnded - 1000);

    Result waited = run("wait", "-f", comparison.toString(), "--cluster", cluster, "--arm", "round-robin");
    assertThat(waited.code()).as(waited.toString()).isZero();
    assertThat(waited.out()).contains("0 run(s) in flight").contains("1/1 arms succeeded");
    Result later = run("status", "-f", comparison.toString(), "--cluster", cluster, "--arm", "round-robin");
    assertThat(later.out()).contains("no run in flight").containsPattern("round-robin\\s+2\\s+" + runIds.get(1) + "\\s+\\d+\\s+Succeeded");
  }

  /**
   * SGLang Model Gateway vs Dynamo KV, imported from its two srtctl recipes
   * (examples/srtctl/gateway-vs-dynamo; the Dynamo one alone sets srtctl's etcd and NATS ports),
   * over its eight TP1 workers, with a smaller workload: the gateway arm starts after every
   * worker's /health, passes its /readiness gate, and its metrics are scraped on its own Prometheus
   * port; the Dynamo arm's etcd runs on the ports the recipe asked for.
   */
  @Test
  void theGatewayArmAndTheDynamoKvArmRunOverEightWorkers() throws Exception {
    Path imported = tmp.resolve("imported.yaml");
    Path skeleton = tmp.resolve("imported-cluster.yaml");
    Result importing = run("import", "examples/srtctl/gateway-vs-dynamo/gateway.yaml", "examples/srtctl/gateway-vs-dynamo/dynamo-kv.yaml",
        "--name", "qwen3-32b-gateway-vs-dynamo", "--out-file", imported.toString(), "--cluster-out", skeleton.toString());
    assertThat(importing.code()).as(importing.toString()).isZero();
    assertThat(Files.readString(imported)).as("the committed example is this import").isEqualTo(
        Files.readString(Path.of("examples/gateway-vs-dynamo-imported.yaml")));
    String infra = Files.readString(skeleton).lines().dropWhile(l -> !l.equals("  infra:")).takeWhile(l -> l.equals("  infra:") || l.startsWith("    "))
        .reduce("", (a, l) -> a + l.substring(2) + "\n");
    assertThat(infra).contains("etcdClientPort: 22379", "etcdPeerPort: 22380", "natsPort: 24222");
    // srtctl's AIPerf command, smaller.
    String yaml = Files.readString(imported)
        .replace("--request-count 512 --concurrency 64", "--request-count 48 --concurrency 8")
        .replace("    kvEvents:", "    env: {SRT_EMULATOR_SPEED: \"4\"}\n    kvEvents:");
    assertThat(yaml).contains("--request-count 48", "SRT_EMULATOR_SPEED");
    Path comparison = tmp.resolve("gateway-vs-dynamo.yaml");
    Files.writeString(comparison, yaml);

    Result r = apply("-f", comparison.toString(), "--cluster", cluster(infra).toString());

    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).contains("2/2 arms succeeded");
    Path dynamo = Files.list(workDir.resolve("default/qwen3-32b-gateway-vs-dynamo/dynamo-kv")).findFirst().orElseThrow();
    assertThat(Files.readString(dynamo.resolve("run.sh"))).as("etcd runs on the recipe's ports, and its health there is the infra gate")
        .contains("--listen-client-urls http://127.0.0.1:22379", "--listen-peer-urls http://127.0.0.1:22380",
            "srt_wait etcd infra http-status http://127.0.0.1:22379/health 200", "ETCD_ENDPOINTS=http://127.0.0.1:22379");
    assertThat(Files.readString(dynamo.resolve("events.jsonl"))).contains("\"gate-passed\",\"gate\":\"infra-ready\"");
    Path gateway = Files.list(workDir.resolve("default/qwen3-32b-gateway-vs-dynamo/sgl-model-gateway")).findFirst().orElseThrow();
    // the real Model Gateway where its pinned environment is installed (as in CI), else the stand-in
    boolean realGateway = Files.readString(gateway.resolve("facts.json")).contains("\"real 0.3.2\"");
    assertThat(realGateway).isEqualTo(dev.srt.operator.emulator.RealPrograms.environment().isPresent());
    String events = Files.readString(gateway.resolve("events.jsonl"));
    int workersHealthy = events.indexOf("\"event\":\"gate-passed\",\"gate\":\"workers-health\"");
    assertThat(workersHealthy).as(events).isPositive()
        .as("the workers' gate passes before the gateway starts").isLessThan(events.indexOf("\"event\":\"process-started\",\"name\":\"router\""));
    String scraped = Files.readString(gateway.resolve("results/metrics-after.txt"));
    if (realGateway) {
      assertThat(scraped).contains("smg_worker_pool_size");
    } else {
      assertThat(Files.readString(gateway.resolve("logs/router.log"))).contains("sgl-model-gateway (emulated)", "policy cache_aware",
          "8 worker(s)");
      assertThat(scraped).contains("sgl_router_processed_requests_total", "sgl_router_cache_hits_total");
    }
    for (Path run : List.of(gateway, dynamo)) {
      assertThat(Files.list(run.resolve("results/aiperf")).toList()).as("srtctl's AIPerf command wrote into AIPERF_ARTIFACT_DIR")
          .anySatisfy(f -> assertThat(f.getFileName().toString()).endsWith(".json"));
    }
    List<String> table = r.out().lines().dropWhile(l -> !l.strip().startsWith("ARM ")).toList();
    for (String arm : List.of("sgl-model-gateway", "dynamo-kv")) {
      assertThat(table).as("the summary reads the AIPerf export of %s", arm).anySatisfy(row ->
          assertThat(row.strip().split("\\s+")).startsWith(arm, "1/1", "Succeeded").satisfies(cells -> assertThat(cells[3]).matches("[0-9]+\\.[0-9]+")));
    }
  }

  /**
   * srtctl's mooncake-router benchmark, imported (its trace from --trace-dir, its goodput
   * thresholds as the SLO) and applied: aiperf replays the trace on its schedule through the
   * Model Gateway, and the run is judged against the recipe's thresholds.
   */
  @Test
  void anImportedMooncakeRouterRecipeReplaysItsTraceAgainstItsThresholds() throws Exception {
    String recipe = Files.readString(Path.of("examples/srtctl/gateway-vs-dynamo/gateway.yaml"));
    String custom = recipe.substring(recipe.indexOf("benchmark:\n"), recipe.indexOf("frontend:\n"));
    Path recipeFile = tmp.resolve("gateway.yaml");
    Files.writeString(recipeFile, recipe.replace(custom, """
        benchmark:
          type: mooncake-router
          mooncake_workload: conversation
          ttft_threshold_ms: 2000
          itl_threshold_ms: 25
        """).replace("  agg_workers: 8", "  agg_workers: 2").replace("agg_workers: 8", "agg_workers: 2"));
    Path traces = Files.createDirectories(tmp.resolve("traces"));
    StringBuilder trace = new StringBuilder();
    for (int i = 0; i < 24; i++) {
      // four conversations whose turns share their first blocks, a request every 100 ms; three blocks of 512
      // tokens hold 1025 to 1536 (AIPerf refuses a length its hash ids do not cover)
      trace.append("{\"timestamp\": ").append(i * 100).append(", \"input_length\": 1100, \"output_length\": 12, \"hash_ids\": [")
          .append(i % 4).append(", ").append(100 + i % 4).append(", ").append(1000 + i).append("]}\n");
    }
    Files.writeString(traces.resolve("conversation_trace.jsonl"), trace.toString());
    Path comparison = tmp.resolve("mooncake.yaml");
    Result imported = run("import", recipeFile.toString(), "--trace-dir", traces.toString(), "--name", "mooncake",
        "--out-file", comparison.toString());
    assertThat(imported.code()).as(imported.toString()).isZero();

    Result r = apply("-f", comparison.toString(), "--cluster", cluster("").toString());

    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).contains("1/1 arms succeeded");
    Path run = Files.list(workDir.resolve("default/mooncake/sgl-model-gateway")).findFirst().orElseThrow();
    assertThat(Files.readString(run.resolve("run.sh"))).contains("--input-file " + traces.resolve("conversation_trace.jsonl"),
        "--custom-dataset-type mooncake_trace", "--fixed-schedule");
    assertThat(Files.readString(comparison)).contains("ttftMs: 2000", "itlMs: 25");
    var json = dev.srt.operator.emulator.Json.parse(report("-f", comparison.toString(), "--cluster", cluster("").toString(), "-o", "json").out());
    var results = json.path("arms").get(0).path("runs").get(0).path("results");
    assertThat(results.path("completed").asInt()).as(json.toString()).isEqualTo(24);
    assertThat(results.has("goodput_ratio")).as("judged against the recipe's thresholds: " + results).isTrue();
  }

  /**
   * Prefill/decode: both Dynamo arms of the disaggregated example run end to end, each over one
   * prefill and one decode engine coupled to their sidecars, with etcd as Dynamo's discovery.
   */
  @Test
  void bothDynamoArmsRunOverPrefillAndDecodeWorkers() throws Exception {
    Result r = apply("-f", quicker("examples/router-comparison-disagg.yaml").toString(), "--cluster", cluster("").toString());

    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).contains("workers prefill 1/1, decode 1/1").contains("2/2 arms succeeded");
    for (String arm : List.of("dynamo-kv", "dynamo-kv-policy")) {
      Path runDir = Files.list(workDir.resolve("default/qwen3-32b-disagg/" + arm)).findFirst().orElseThrow();
      assertThat(Files.readString(runDir.resolve("logs/engine-prefill-0.log"))).contains("disaggregation mode prefill");
      assertThat(Files.readString(runDir.resolve("logs/engine-decode-0.log"))).contains("disaggregation mode decode");
      assertThat(runDir.resolve("logs/etcd.log")).as("etcd, Dynamo's discovery").isNotEmptyFile();
      assertThat(runDir.resolve("logs/nats-server.log")).as("no plane uses NATS").doesNotExist();
    }
  }

  /**
   * An arm whose Dynamo planes go over NATS: nats-server starts beside etcd, and every Dynamo
   * process is told where. Both are Debian's (CI installs them; the emulated host runs a host's own
   * where it has them): the sidecars register in the real etcd through its JSON gateway, the
   * frontend finds them there, and every Dynamo process connects to the real NATS with JetStream.
   */
  @Test
  void anArmWithNatsPlanesRunsWithNatsBesideEtcd() throws Exception {
    TestHosts.program("etcd", "apt-get install etcd-server (.ci/install-deps.sh installs it)");
    TestHosts.program("nats-server", "apt-get install nats-server (.ci/install-deps.sh installs it)");
    String planes = "    eventPlane: zmq\n    requestPlane: tcp\n";
    String yaml = Files.readString(quicker(COMPARISON.toString()));
    assertThat(yaml).contains(planes);
    Path comparison = tmp.resolve("nats.yaml");
    Files.writeString(comparison, yaml.replace(planes, "    eventPlane: nats\n    requestPlane: nats\n"));

    Result r = apply("-f", comparison.toString(), "--cluster", cluster("").toString(), "--arm", "dynamo-kv");

    assertThat(r.code()).as(r.toString()).isZero();
    Path runDir = workDir.resolve("default/qwen3-32b-routers/dynamo-kv/" + runIds.get(0));
    assertThat(runDir.resolve("logs/nats-server.log")).isNotEmptyFile();
    assertThat(runDir.resolve("logs/etcd.log")).isNotEmptyFile();
    assertThat(Files.readString(runDir.resolve("run.sh"))).contains("NATS_SERVER=nats://127.0.0.1:4222")
        .contains("ETCD_ENDPOINTS=http://127.0.0.1:2379");
    assertThat(runDir.resolve("infra/etcd/member/snap/db")).as("Debian's etcd kept its store").isRegularFile();
    assertThat(Files.readString(runDir.resolve("logs/etcd.log"))).contains("etcdmain: etcd Version: ");
    assertThat(Files.readString(runDir.resolve("logs/nats-server.log"))).contains("Starting JetStream").doesNotContain("emulated");
    String frontend = Files.readString(runDir.resolve("logs/router.log"));
    assertThat(frontend).contains("dynamo.frontend (emulated): connected to NATS at 127.0.0.1:4222, JetStream ");
    for (String sidecar : List.of("logs/sidecar-0.log", "logs/sidecar-1.log")) {
      assertThat(Files.readString(runDir.resolve(sidecar))).as(sidecar)
          .contains("dynamo.sglang.sidecar (emulated): connected to NATS at 127.0.0.1:4222, JetStream ")
          .contains("dynamo.sglang.sidecar (emulated): registered ");
    }
  }

  /**
   * Verdicts that hold: cache-aware against round-robin over two interleaved rounds on the emulated
   * host (whose prefix cache shortens prefill as on a GPU) come out worse on the engines' cache hit
   * rate, and an arm whose router sheds a fifth of the requests is not comparable, however fast.
   */
  @Test
  void repeatedRunsGiveVerdictsAndARouterThatShedsRequestsIsNotComparable() throws Exception {
    String yaml = Files.readString(Path.of("examples/sgl-router-policies.yaml"))
        // a quarter of the prompt groups, engines four times as fast: the same prefix structure (the cache hit
        // rates the verdict is on are the engines' counters, not timings) in a fraction of the time
        .replace("num-prompts: 512", "num-prompts: 512, gsp-num-groups: 16")
        .replace("    kvEvents:", "    env: {SRT_EMULATOR_SPEED: \"4\"}\n    kvEvents:")
        + """
          - name: shedding
            frontend:
              type: sgl-router
              source: /src/sglang/experimental/sgl-router
              args: {policy: cache_aware}
              env: {SRT_EMULATOR_FAIL_RATIO: "0.2"}
        """;
    Path comparison = tmp.resolve("policies.yaml");
    Files.writeString(comparison, yaml);

    Result r = apply("-f", comparison.toString(), "--cluster", cluster("").toString());

    assertThat(r.code()).as(r.toString()).isZero();
    // interleaved rounds: A B C, A B C, A B C
    assertThat(r.out().lines().filter(l -> l.contains(" submitted run ")).map(l -> l.split("\\s+")[0]).toList())
        .containsExactly("cache-aware", "round-robin", "shedding", "cache-aware", "round-robin", "shedding", "cache-aware",
            "round-robin", "shedding");
    assertThat(r.out()).contains("round-robin  run 3/3");
    Result json = report("-f", comparison.toString(), "--cluster", cluster("").toString(), "-o", "json");
    var report = dev.srt.operator.emulator.Json.parse(json.out());
    java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> verdicts = new java.util.HashMap<>();
    report.path("verdicts").forEach(v -> verdicts.put(v.path("arm").asText() + " " + v.path("metric").asText(), v));
    // Round robin scatters each prefix group over both engines, so the engines' counters give it the lower cache
    // hit rate; whether three emulated runs make that significant after Holm is the recorded corpus's to show
    // (RecordedRunsTest), not this machine's timing.
    // The counters may even agree exactly from run to run, and then no verdict weighs them (no spread).
    var roundRobin = verdicts.get("round-robin engine_cache_hit_rate");
    assertThat(roundRobin.path("deltaPct").asDouble()).as(json.out()).isNegative();
    if (roundRobin.path("verdict").asText().equals("not-comparable")) {
      assertThat(roundRobin.path("reason").asText()).as(json.out()).startsWith("no spread between runs");
    } else {
      assertThat(roundRobin.path("verdict").asText()).as(json.out()).isIn("worse", "inconclusive");
      assertThat(roundRobin.path("ci95Pct").size()).isEqualTo(2);
    }
    for (String metric : List.of("request_throughput", "p99_ttft_ms", "p99_itl_ms", "engine_cache_hit_rate")) {
      var shed = verdicts.get("shedding " + metric);
      assertThat(shed.path("verdict").asText()).as(json.out()).isEqualTo("not-comparable");
      assertThat(shed.path("reason").asText()).startsWith("shedding failed ").contains("more than maxFailedRatio 1.0%");
    }
    var shedding = report.path("arms").get(2);
    assertThat(shedding.path("summary").path("failedRatio").asDouble()).isBetween(0.05, 0.4);
    assertThat(shedding.path("runs")).allSatisfy(run -> assertThat(run.path("results").path("failed").asLong()).isPositive());
  }

  /**
   * {@code container: {runtime: docker}} on a host whose {@code docker} runs each container's
   * command here (no container engine on this machine) and records how it was asked: the build
   * stages run in the image as one {@code bash -c} each, every process runs under {@code docker run},
   * and Dynamo is installed into the run, not into the host's Python.
   */
  @Test
  void withDockerTheBuildsRunInTheImageAndDynamoIsInstalledIntoTheRun() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("docker-bin"));
    Path calls = tmp.resolve("docker-calls.txt");
    Path docker = bin.resolve("docker");
    Files.writeString(docker, """
        #!/usr/bin/env bash
        # docker without an engine: `docker run` runs the command here, in the container's workdir and env.
        set -euo pipefail
        (IFS=$'\\x1f'; printf '%%s\\x1e' "$*") >>%s
        [[ "$1" == run ]] || { echo "fake docker: only run" >&2; exit 125; }
        shift
        workdir=/ envs=() entrypoint=()
        while [[ $# -gt 0 ]]; do
          case "$1" in
            --rm | --init) shift ;;
            --name | --label | --network | --ipc | --gpus | --volume | --user) shift 2 ;;
            --entrypoint) entrypoint=$2; shift 2 ;;
            --workdir) workdir=$2; shift 2 ;;
            --env) if [[ "$2" == *=* ]]; then envs+=("$2"); elif [[ -v "$2" ]]; then envs+=("$2=${!2}"); fi; shift 2 ;;
            -*) echo "fake docker: unexpected option $1" >&2; exit 125 ;;
            *) break ;;
          esac
        done
        shift # the image
        cd "$workdir"
        exec env "${envs[@]}" "${entrypoint[@]}" "$@"
        """.formatted(calls));
    Files.setPosixFilePermissions(docker, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    // The script's user, as far as the run can tell: not root, so it takes back what containers wrote.
    Path id = bin.resolve("id");
    Files.writeString(id, "#!/usr/bin/env bash\ncase \"${1:-}\" in -u|-g) echo 4242 ;; *) exec /usr/bin/id \"$@\" ;; esac\n");
    Files.setPosixFilePermissions(id, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));

    Result r = apply("-f", quicker(COMPARISON.toString()).toString(), "--arm", "dynamo-kv-policy", "--cluster", cluster("""
        path: [%s]
        env: {HF_HOME: /scratch/hf}
        container: {runtime: docker, image: "lmsysorg/sglang:dev"}""".formatted(bin)).toString());

    assertThat(r.code()).as(r.toString()).isZero();
    // one call per record (\x1e), arguments apart by \x1f: the stage's function text has newlines
    List<List<String>> runs = Stream.of(Files.readString(calls).split("\u001e")).map(l -> List.of(l.split("\u001f"))).toList();
    List<List<String>> builds = runs.stream().filter(a -> a.contains("srt-" + runIds.get(0) + "-build-dynamo-build")
        || a.contains("srt-" + runIds.get(0) + "-build-dynamo-install")).toList();
    assertThat(builds).hasSize(2).allSatisfy(a -> {
      assertThat(a.subList(a.indexOf("lmsysorg/sglang:dev") + 1, a.size())).startsWith("bash", "--norc", "--noprofile", "-c");
      assertThat(a).doesNotContain("--gpus");
    });
    // The stage's own function travels into the container, with the helpers it calls.
    assertThat(builds.get(0).get(builds.get(0).size() - 1)).contains("srt_set_toml_dependency ()").endsWith("}\nsrt_stage_dynamo_build");
    assertThat(runs).anySatisfy(a -> assertThat(a).contains("srt-" + runIds.get(0) + "-worker-0", "--gpus", "\"device=0,1,2,3\"",
        "--env", "HF_HOME"));
    assertThat(runs).anySatisfy(a -> assertThat(a).contains("srt-" + runIds.get(0) + "-router", "PYTHONPATH=python"));
    Path runDir = workDir.resolve("default/qwen3-32b-routers/dynamo-kv-policy/" + runIds.get(0));
    assertThat(runDir.resolve("python/dynamo/_core.py")).exists();
    // On exit one more container gave the run directory and the build caches back to the user.
    assertThat(runs).anySatisfy(a -> assertThat(a).containsSubsequence("--user", "0", "--entrypoint", "chown")
        .contains("-R", "4242:4242", runDir.toString()));
    if ("root".equals(System.getProperty("user.name"))) {
      assertThat(Files.getOwner(runDir.resolve("python/dynamo/_core.py")).getName()).isIn("4242", "#4242");
      assertThat(Files.getOwner(runDir.resolve("python")).getName()).isIn("4242", "#4242");
    }
    Path hostPackages = workDir.resolve("emulator/state/packages.json");
    assertThat(Files.exists(hostPackages) ? Files.readString(hostPackages) : "").doesNotContain("ai-dynamo");
  }

  /** The same arm with AIPerf as the workload: the emulated aiperf drives the router, and its export gives the arm's results. */
  @Test
  void anAiperfWorkloadRunsAndItsExportIsSummarized() throws Exception {
    String bench = "    tool: bench-serving\n    args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 1024}\n";
    String yaml = Files.readString(COMPARISON);
    assertThat(yaml).contains(bench);
    Path comparison = tmp.resolve("aiperf-comparison.yaml");
    Files.writeString(comparison, yaml.replace(bench,
        "    tool: aiperf\n    args: {request-count: 24, concurrency: 4, synthetic-input-tokens-mean: 256, output-tokens-mean: 32}\n"));

    Result r = apply("-f", comparison.toString(), "--cluster", cluster("").toString(), "--arm", "sgl-router");

    assertThat(r.code()).as(r.toString()).isZero();
    Path runDir = workDir.resolve("default/qwen3-32b-routers/sgl-router/" + runIds.get(0));
    assertThat(Files.readString(runDir.resolve("run.sh"))).contains("aiperf profile --model");
    var export = dev.srt.operator.emulator.Json.parse(Files.readString(runDir.resolve("results/aiperf/profile_export_aiperf.json")));
    assertThat(export.path("request_count").path("avg").asInt()).isEqualTo(24);
    String row = r.out().lines().filter(l -> l.strip().startsWith("sgl-router ") && l.contains("Succeeded") && l.contains("%"))
        .findFirst().orElseThrow();
    assertThat(row).contains(String.format(java.util.Locale.ROOT, "%.1f ms", export.path("time_to_first_token").path("avg").asDouble()));
  }

  @Test
  void bashPrintsTheDirectScriptAndSubmitsNothing() throws Exception {
    Result several = apply("-f", COMPARISON.toString(), "--cluster", cluster("").toString(), "--bash");
    assertThat(several.code()).isEqualTo(1);
    assertThat(several.err()).contains("--arm NAME").contains("sgl-router, dynamo-kv, dynamo-kv-policy");

    Result r = apply("-f", COMPARISON.toString(), "--cluster", cluster("").toString(), "--bash", "--arm", "dynamo-kv");
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("#!/usr/bin/env bash\n").contains("SRT_MODE=\"direct\"")
        .contains("export PATH=" + workDir.resolve("emulator/bin") + ":\"$PATH\"");
    assertThat(r.err()).contains("emulated GPU host");
    assertThat(workDir.resolve("default")).doesNotExist();

    // without a cluster: defaults, still a direct script
    Result plain = apply("-f", COMPARISON.toString(), "--bash", "--arm", "sgl-router");
    assertThat(plain.code()).as(plain.toString()).isZero();
    assertThat(plain.out()).startsWith("#!/usr/bin/env bash\n").contains("SRT_ARM=\"sgl-router\"");
  }

  @Test
  void aWorkerThatNeverTurnsHealthyFailsTheArmWithGateTimeout() throws Exception {
    Path comparison = tmp.resolve("comparison.yaml");
    String yaml = Files.readString(COMPARISON);
    assertThat(yaml).contains("healthCheck: {timeout: 30m, interval: 10s}");
    Files.writeString(comparison, yaml.replace("healthCheck: {timeout: 30m, interval: 10s}", "healthCheck: {timeout: 3s, interval: 1s}"));

    Result r = apply("-f", comparison.toString(), "--cluster", cluster("env: {SRT_EMULATOR_FAIL_HEALTH: \"1\"}").toString(),
        "--arm", "sgl-router");

    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.out()).contains("0/1 arms succeeded");
    List<String> table = r.out().lines().dropWhile(l -> !l.strip().startsWith("ARM ")).toList();
    assertThat(table.get(1).strip().split("\\s+")).startsWith("sgl-router", "0/1", "Failed");
    assertThat(r.out()).containsPattern("sgl-router run r[0-9a-f]{8}: failed: GateTimeout: worker-0 not ready after 3s");

    // The other arms never ran: report says so, and exits 1.
    Result later = report("-f", comparison.toString(), "--cluster", cluster("env: {SRT_EMULATOR_FAIL_HEALTH: \"1\"}").toString());
    assertThat(later.code()).isEqualTo(1);
    assertThat(later.out()).containsPattern("sgl-router run r[0-9a-f]{8}: failed: GateTimeout: worker-0 not ready after 3s").contains("dynamo-kv: not run");

    // Its logs, from the run directory: the list, the end of the script's own log, a missing one.
    String clusterFile = cluster("env: {SRT_EMULATOR_FAIL_HEALTH: \"1\"}").toString();
    Result list = run("logs", "--filename", comparison.toString(), "--cluster", clusterFile, "--arm", "sgl-router");
    assertThat(list.code()).as(list.toString()).isZero();
    // the router starts only once every worker serves: this run never got that far
    assertThat(list.out().lines()).contains("script.log", "worker-0.log", "worker-1.log").doesNotContain("router.log");
    Result script = run("logs", "--filename", comparison.toString(), "--cluster", clusterFile, "--arm", "sgl-router", "--process", "script",
        "--tail", "3");
    assertThat(script.code()).as(script.toString()).isZero();
    assertThat(script.out().lines()).hasSize(3).last().asString().contains("finished: failed");
    assertThat(script.err()).contains("run " + runIds.get(0) + " of arm sgl-router");
    Result missing = run("logs", "--filename", comparison.toString(), "--cluster", clusterFile, "--arm", "sgl-router", "--process", "sidecar-0");
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.err()).contains("no log of sidecar-0; its logs: ").contains("script, ").contains("worker-0");
    // a run by its id, and --follow of a run that has ended: the last lines, then it returns
    Result byId = run("logs", "--filename", comparison.toString(), "--cluster", clusterFile, "--arm", "sgl-router", "--run", runIds.get(0),
        "--process", "script", "--tail", "1");
    assertThat(byId.out().lines()).singleElement().asString().contains("finished: failed");
    assertThat(run("logs", "--filename", comparison.toString(), "--cluster", clusterFile, "--arm", "sgl-router", "--run", "r00000000").err())
        .contains("has no run r00000000");
    Result followed = run("logs", "--filename", comparison.toString(), "--cluster", clusterFile, "--arm", "sgl-router", "-f", "--tail", "2");
    assertThat(followed.code()).as(followed.toString()).isZero();
    assertThat(followed.out().lines()).hasSize(2).last().asString().contains("finished: failed");
    assertThat(run("logs", "--filename", comparison.toString(), "--cluster", clusterFile, "--arm", "dynamo-kv").err()).contains("has no run");
  }

  /**
   * Ctrl-C in the second of two repetitions: the run in flight is cancelled, nothing of it is left,
   * exit 130, and the first run, finished, is still in the summary.
   */
  @Test
  void ctrlCCancelsTheRunInFlightAndKeepsTheFinishedOnes() throws Exception {
    Path log = tmp.resolve("apply.log");
    Path twice = tmp.resolve("twice.yaml");
    Files.writeString(twice, Files.readString(quicker(COMPARISON.toString())).replace("  execution: {order: declared}", "  execution: {repetitions: 2}"));
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString(), "apply", "-f", twice.toString(),
        "--cluster", cluster("").toString(), "--arm", "dynamo-kv")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(100))
          .until(() -> Files.readString(log).lines().anyMatch(l -> l.contains("run 2/2") && l.contains("workers 2/2")));
      String before = Files.readString(log);
      Matcher m = RUN_ID.matcher(before);
      assertThat(m.find()).as(before).isTrue();
      runIds.add(m.group(1));
      assertThat(m.find()).as(before).isTrue();
      runIds.add(m.group(1));
      assertThat(Processes.withRunId(m.group(1))).isNotEmpty();

      // A JVM started from a background job inherits SIGINT ignored, and cannot be interrupted by it:
      // there the same handler is reached with SIGTERM.
      String signal = sigintIgnored() ? "TERM" : "INT";
      new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();

      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      String out = Files.readString(log);
      assertThat(p.exitValue()).as(out).isEqualTo(signal.equals("INT") ? 130 : 143);
      assertThat(out).contains("interrupted (SIG" + signal + ")").contains("cancelled run " + m.group(1))
          .contains("0/1 arms succeeded");
      Path runDir = workDir.resolve("default/qwen3-32b-routers/dynamo-kv/" + m.group(1));
      String row = out.lines().dropWhile(l -> !l.strip().startsWith("ARM ")).skip(1).findFirst().orElseThrow();
      assertThat(row).as("%s\nevents:\n%s\nscript log:\n%s", out, readIfExists(runDir.resolve("events.jsonl")), readIfExists(runDir.resolve("logs/script.log")))
          .contains("Cancelled");
      // the first run finished: its numbers are in the row, one succeeded of one finished
      assertThat(row.strip().split("\\s+")).startsWith("dynamo-kv", "1/1", "Cancelled");
      assertThat(row).matches(".*[0-9]+\\.[0-9]%.*");
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  /** Whether this JVM (and so every process it starts) ignores SIGINT: bit 2 of SigIgn in /proc. */
  private static boolean sigintIgnored() throws IOException {
    return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("SigIgn:"))
        .map(l -> Long.parseLong(l.substring("SigIgn:".length()).strip(), 16)).anyMatch(mask -> (mask & (1L << 1)) != 0);
  }

  private static String readIfExists(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "(no " + file + ")";
  }

  /** The processes of a run: those with SRT_RUN_ID=<id> in their environment. */
  static final class Processes {
    private Processes() {}

    static List<Long> withRunId(String runId) {
      byte[] marker = ("SRT_RUN_ID=" + runId).getBytes(StandardCharsets.UTF_8);
      List<Long> pids = new ArrayList<>();
      try (Stream<Path> proc = Files.list(Path.of("/proc"))) {
        proc.filter(d -> d.getFileName().toString().matches("\\d+")).forEach(d -> {
          try {
            byte[] env = Files.readAllBytes(d.resolve("environ"));
            if (contains(env, marker)) {
              pids.add(Long.parseLong(d.getFileName().toString()));
            }
          } catch (IOException | SecurityException e) {
            // gone, or not ours to read
          }
        });
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return pids;
    }

    /** {@code marker} as one whole NUL-separated entry. */
    private static boolean contains(byte[] env, byte[] marker) {
      int start = 0;
      for (int i = 0; i <= env.length; i++) {
        if (i == env.length || env[i] == 0) {
          if (i - start == marker.length && java.util.Arrays.equals(env, start, i, marker, 0, marker.length)) {
            return true;
          }
          start = i + 1;
        }
      }
      return false;
    }
  }
}
