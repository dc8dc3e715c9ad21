package dev.srt.operator.host;

import dev.srt.operator.run.BackendRunHost;
import dev.srt.operator.run.RunHost;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static dev.srt.operator.results.ResultFixtures.scrape;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.RunMemory;
import dev.srt.operator.run.RunRecord;
import dev.srt.operator.run.RunTracker;
import dev.srt.operator.run.RunView;
import dev.srt.operator.api.Mode;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.reconcile.ArmResultGauges;
import dev.srt.operator.reconcile.HostCallTimer;
import dev.srt.operator.reconcile.ResultSeries;
import dev.srt.operator.verdict.Metric;
import dev.srt.operator.reconcile.RunObservations;
import dev.srt.operator.results.ResultFile;
import dev.srt.operator.results.ResultFixtures;
import dev.srt.operator.results.ResultMetric;
import dev.srt.operator.results.RunResults;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, finding 8 "Forged results": anything in a run (an engine, a router, a custom workload)
 * can append a {@code summary} line to events.jsonl. Results now come only from the benchmark's
 * own result files, read size-limited by one command and schema-checked here; the metric names
 * (status keys, the {@code metric} label) come from a fixed set.
 */
class ForgedResultsTest {
  /** A last row as bench_serving (and the emulator's bench_serving) writes it. */
  static final String BENCH_ROW = "{\"tag\":null,\"backend\":\"sglang-oai-chat\",\"dataset_name\":\"random\",\"request_rate\":\"inf\","
      + "\"max_concurrency\":64,\"sharegpt_output_len\":null,\"random_input_len\":1024,\"random_output_len\":128,"
      + "\"random_range_ratio\":0.5,\"server_info\":{\"version\":\"0.5.5\",\"internal_states\":[{\"avg_spec_accept_length\":null}]},"
      + "\"duration\":12.73412,\"completed\":256,\"total_input_tokens\":262144,\"total_output_tokens\":32768,"
      + "\"request_throughput\":20.103553,\"input_throughput\":20586.04,\"output_throughput\":2573.25,\"total_throughput\":2.315929E4,"
      + "\"mean_e2e_latency_ms\":3011.5,\"median_e2e_latency_ms\":2950.0,\"p99_e2e_latency_ms\":4999.9,"
      + "\"mean_ttft_ms\":399.1,\"median_ttft_ms\":350.25,\"std_ttft_ms\":88.1,\"p90_ttft_ms\":600.0,\"p99_ttft_ms\":748.2,"
      + "\"mean_itl_ms\":20.5,\"median_itl_ms\":19.0,\"p99_itl_ms\":61.0,\"max_itl_ms\":140.5,\"concurrency\":60.5,"
      + "\"accept_length\":null,\"max_output_tokens_per_s\":3100,\"max_concurrent_requests\":64,"
      + "\"emulator\":{\"scale\":1.0,\"num_requests\":256,\"failed\":0,\"requested\":{\"num_prompts\":256}}}";

  /** AIPerf's aggregate export (schema 1.5), as the emulator's aiperf writes it. */
  static final String AIPERF_EXPORT = """
      {"schema_version": "1.5", "aiperf_version": "0.3.0", "benchmark_id": "b", "was_cancelled": false,
       "input_config": {"model": "qwen", "url": "http://127.0.0.1:8000", "random_seed": 42},
       "time_to_first_token": {"unit": "ms", "avg": 812.5, "min": 100.0, "max": 3000.0, "p1": 120.0, "p50": 640.0,
                               "p99": 2890.0, "std": 10.0, "count": 120, "sum": 97500.0},
       "inter_token_latency": {"unit": "ms", "avg": 21.5, "p50": 20.0, "p99": 48.0, "count": 120},
       "request_latency": {"unit": "ms", "avg": 4100.0, "p99": 9000.0},
       "request_throughput": {"unit": "requests/sec", "avg": 7.5},
       "output_token_throughput": {"unit": "tokens/sec", "avg": 950.25},
       "request_count": {"unit": "requests", "avg": 120},
       "benchmark_duration": {"unit": "sec", "avg": 16.0},
       "error_summary": [{"error": "timeout", "count": 2}]}
      """;

  @TempDir Path work;

  /** What the files above give: bench_serving's numbers as written, the engines' from the scrapes. */
  /** The results by key, each value as its shortest plain decimal. */
  static Map<String, String> strings(BenchmarkResults results) {
    Map<String, String> out = new java.util.TreeMap<>();
    Mappers.json().convertValue(results, Map.class).forEach((k, v) -> out.put(String.valueOf(k), plain(String.valueOf(v))));
    return out;
  }

  static Map<String, String> plain(Map<String, String> values) {
    Map<String, String> out = new java.util.TreeMap<>();
    values.forEach((k, v) -> out.put(k, plain(v)));
    return out;
  }

  private static String plain(String decimal) {
    return new java.math.BigDecimal(decimal).stripTrailingZeros().toPlainString();
  }

  static Map<String, String> expectedFromFiles() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("completed", "256");
    m.put("duration", "12.73412");
    m.put("request_throughput", "20.103553");
    m.put("output_throughput", "2573.25");
    m.put("total_throughput", "23159.29");
    m.put("mean_ttft_ms", "399.1");
    m.put("median_ttft_ms", "350.25");
    m.put("p90_ttft_ms", "600.0");
    m.put("p99_ttft_ms", "748.2");
    m.put("mean_itl_ms", "20.5");
    m.put("median_itl_ms", "19.0");
    m.put("p99_itl_ms", "61.0");
    m.put("mean_e2e_latency_ms", "3011.5");
    m.put("p99_e2e_latency_ms", "4999.9");
    m.put("engine_cache_hit_rate", "0.6000");
    m.put("worker_requests_max_over_min", "1.30");
    // 130 and 100 requests: the busiest over the mean of 115
    m.put("worker_requests_max_over_mean", "1.130");
    return m;
  }

  /** Forged summary lines: odd and huge keys, strings, NaN, label syntax, 10,000 keys, wrong shapes. */
  static List<String> forgedSummaries() {
    String hugeKey = "k".repeat(40_000);
    String tenThousandKeys = IntStream.range(0, 10_000).mapToObj(i -> "\"m" + i + "\":\"" + i + "\"")
        .collect(Collectors.joining(",", "{", "}"));
    return List.of(
        "{\"ts\":\"2026-11-30T05:40:09Z\",\"event\":\"summary\",\"metrics\":{\"request_throughput\":\"1e308\","
            + "\"mean_ttft_ms\":\"NaN\",\"p99_ttft_ms\":\"not a number\",\"completed\":\"-1\","
            + "\"evil\\\"} 1\\n# HELP x\":\"1\",\"bidi\\u202e\\u0000\":\"2\",\"" + hugeKey + "\":\"3\"}}",
        "{\"ts\":\"2026-11-30T05:40:09Z\",\"event\":\"summary\",\"metrics\":" + tenThousandKeys + "}",
        "{\"ts\":\"2026-11-30T05:40:09Z\",\"event\":\"summary\",\"metrics\":\"request_throughput=1\"}",
        "{\"ts\":\"2026-11-30T05:40:09Z\",\"event\":\"summary\",\"metrics\":{\"request_throughput\":{\"x\":[1,2]},"
            + "\"engine_cache_hit_rate\":NaN}}",
        "{\"ts\":\"2026-11-30T05:40:09Z\",\"event\":\"summary\",\"metrics\":[[\"request_throughput\",\"1\"]]}");
  }

  private Path runDir(RunRef run) throws Exception {
    return Files.createDirectories(Path.of(run.runDir(work.toString())));
  }

  private static void write(Path file, String text) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private static void append(Path file, String line) throws Exception {
    Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** A run that succeeded, with forged summary lines between its real events. */
  private Path succeededRunWithForgedSummaries(RunRef run) throws Exception {
    Path dir = runDir(run);
    Path events = dir.resolve("events.jsonl");
    append(events, "{\"ts\":\"2026-11-30T05:40:00Z\",\"event\":\"run-started\",\"arm\":\"" + run.arm() + "\"}");
    append(events, "{\"ts\":\"2026-11-30T05:40:04Z\",\"event\":\"phase\",\"phase\":\"benchmarking\"}");
    for (String forged : forgedSummaries()) {
      append(events, forged);
    }
    append(events, "{\"ts\":\"2026-11-30T05:40:09Z\",\"event\":\"result\",\"file\":\"results/bench-serving.jsonl\"}");
    append(events, "{\"ts\":\"2026-11-30T05:40:10Z\",\"event\":\"finished\",\"status\":\"succeeded\",\"code\":0}");
    Files.writeString(dir.resolve("exit-code"), "0\n");
    return dir;
  }

  /** A run submitted without a plan: no planned endpoints or gates. */
  private static RunRecord record(RunRef run) {
    return new RunRecord(run.arm(), run.runId(), null, null, null, null, Instant.now(), List.of(), null, List.of());
  }

  private static ArmStatus replay(RunRef run, List<RunEvent> events, JobStatus job, RunResults results) {
    return RunTracker.step(record(run), new RunView(events, true, job, results), RunMemory.FRESH, Instant.now()).status();
  }

  private static List<String> metricLabels(SimpleMeterRegistry registry) {
    return registry.getMeters().stream().flatMap(m -> ResultSeries.metricOf(m.getId()).stream()).map(Metric::key).toList();
  }

  // ---- the operator's path: poller, state machine, gauges ----

  @Test
  void aForgedSummaryLineReachesNeitherTheStatusNorTheGauges() throws Exception {
    RunRef run = new RunRef("default", "cmp", "sgl-router", "r0000000a");
    Path dir = succeededRunWithForgedSummaries(run);
    write(dir.resolve("results/bench-serving.jsonl"), BENCH_ROW + "\n");
    write(dir.resolve("results/metrics-before.txt"), scrape(100, 0, 1, 0, 0, 0));
    // during the benchmark: worker 0 6000 prompt tokens (4500 cached on the device), 130 requests;
    // worker 1 4000 (1500 cached) and 100 requests
    write(dir.resolve("results/metrics-after.txt"), scrape(6100, 4500, 131, 4000, 1500, 100));
    // a forged line after the end, too
    append(dir.resolve("events.jsonl"), forgedSummaries().get(0));

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (BackendRunHost host = new BackendRunHost(new DirectBackend(new LocalTransport(), work.toString()), Mode.DIRECT,
            new HostCallTimer(registry));
        RunObservations observations = new RunObservations(id -> { }, Duration.ofMillis(100))) {
      ResourceID id = new ResourceID("cmp", "default");
      observations.track(id, "default/local", host, run, record(run), Duration.ofMillis(100));
      await().atMost(Duration.ofSeconds(20)).until(() -> observations.latest(run).map(RunTracker.Step::ended).orElse(false));
      assertThat(observations.view(run).orElseThrow().events()).extracting(RunEvent::event).filteredOn("summary"::equals).hasSize(5);

      ArmStatus status = observations.latest(run).orElseThrow().status();
      ArmResultGauges gauges = new ArmResultGauges(registry);
      gauges.update(id, List.of(status));

      assertThat(status.phase).isEqualTo("Succeeded");
      assertThat(status.message).isEqualTo("benchmark finished");
      assertThat(strings(status.results)).isEqualTo(plain(expectedFromFiles()));
      assertThat(status.resultFiles).containsExactly("results/bench-serving.jsonl");
      assertThat(metricLabels(registry)).containsExactlyInAnyOrderElementsOf(expectedFromFiles().keySet());
      assertThat(registry.find("srt_arm_request_throughput").gauge().value()).isEqualTo(20.103553);
      // the reading was one command, timed like every remote execution
      assertThat(registry.find("srt_host_exec_seconds").tag("operation", "results").timer().count()).isEqualTo(1);
    }
  }

  @Test
  void aForgedSummaryWithoutResultFilesGivesNoResultsAndSaysWhy() throws Exception {
    RunRef run = new RunRef("default", "cmp", "custom", "r0000000b");
    succeededRunWithForgedSummaries(run);
    DirectBackend backend = new DirectBackend(new LocalTransport(), work.toString());
    RunObservation seen = new ClusterObserver(backend).poll(List.of(new ActiveRun(run, null, 0))).get(run);
    ArmStatus status = replay(run, seen.events(), seen.job(), ResultsFetch.read(backend, run));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new ArmResultGauges(registry).update(new ResourceID("cmp", "default"), List.of(status));

    assertThat(status.phase).isEqualTo("Succeeded");
    assertThat(status.results).isNull();
    assertThat(status.message).startsWith("benchmark finished; no results: no headline numbers in the run's result files");
    assertThat(metricLabels(registry)).isEmpty();
  }

  @Test
  void theGaugesTakeOnlyKnownMetricNamesAndFiniteValuesWhateverAStatusHolds() {
    ArmStatus a = new ArmStatus();
    a.name = "arm";
    a.results = new BenchmarkResults();
    a.results.requestThroughput = 12.5;
    a.results.meanTtftMs = Double.NaN;
    a.results.p99TtftMs = Double.POSITIVE_INFINITY;
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    new ArmResultGauges(registry).update(new ResourceID("cmp", "default"), List.of(a));

    assertThat(metricLabels(registry)).containsExactly("request_throughput");
    assertThat(Arrays.stream(ResultMetric.values()).map(ResultMetric::key)).containsExactly("completed", "failed", "duration",
        "request_throughput", "output_throughput", "total_throughput", "mean_ttft_ms", "median_ttft_ms", "p90_ttft_ms", "p99_ttft_ms",
        "mean_itl_ms", "median_itl_ms", "p90_itl_ms", "p99_itl_ms", "mean_tpot_ms", "p99_tpot_ms", "mean_e2e_latency_ms",
        "p99_e2e_latency_ms", "goodput", "goodput_ratio", "shed_ratio", "engine_cache_hit_rate", "worker_requests_max_over_min",
        "worker_requests_max_over_mean");
  }

  @Test
  void resultEventsListOnlyBoundedPathsUnderResults() {
    RunRef run = new RunRef("default", "cmp", "arm", "r0000000c");
    List<RunEvent> events = new java.util.ArrayList<>();
    for (String file : List.of("results/bench-serving.jsonl", "/etc/passwd", "results/../../x", "results/a\nb",
        "results/" + "x".repeat(300), "logs/script.log")) {
      events.add(event("result", "file", file));
    }
    IntStream.range(0, 500).forEach(i -> events.add(event("result", "file", "results/f" + i)));

    ArmStatus s = replay(run, events, null, null);

    assertThat(s.resultFiles).hasSize(100).startsWith("results/bench-serving.jsonl", "results/f0")
        .allMatch(f -> f.matches("results/[a-z0-9.-]+"));
  }

  private static RunEvent event(String name, String key, String value) {
    var node = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("event", name).put(key, value);
    return new RunEvent(null, name, node);
  }

  // ---- the one command: size limits on the host, one command per finished run ----

  @Test
  void theFilesAreReadWithOneCommandAndGiveTheNumbersOfTheRealFormats() throws Exception {
    RunRef bench = new RunRef("default", "cmp", "bench", "r00000001");
    Path dir = runDir(bench);
    // an earlier row, blank lines: the last non-blank row counts, as for bench_serving's readers
    write(dir.resolve("results/bench-serving.jsonl"), "{\"completed\":10,\"request_throughput\":1.5}\n" + BENCH_ROW + "\n\n");
    write(dir.resolve("results/metrics-before.txt"), scrape(100, 0, 1, 0, 0, 0));
    write(dir.resolve("results/metrics-after.txt"), scrape(6100, 4500, 131, 4000, 1500, 100));
    // AIPerf's files beside bench_serving's are not even fetched (the command's output stays bounded)
    write(dir.resolve("results/aiperf/x_aiperf.json"), "not read");
    write(dir.resolve("results/aiperf/x.jsonl"), "not read");
    RunRef aiperf = new RunRef("default", "cmp", "aiperf", "r00000002");
    write(runDir(aiperf).resolve("results/aiperf/agentx_aiperf.json"), AIPERF_EXPORT);
    write(runDir(aiperf).resolve("results/aiperf/zzz_aiperf.json"), "not the first in byte order");
    // the records beside the first export: a failed request adds nothing the export does not say
    write(runDir(aiperf).resolve("results/aiperf/agentx.jsonl"), "{\"metadata\": {}, \"metrics\": null, \"error\": {\"code\": 503}}\n");
    CountingTransport transport = new CountingTransport(new LocalTransport());
    DirectBackend backend = new DirectBackend(transport, work.toString());

    RunResults benchResults = ResultsFetch.read(backend, bench);
    assertThat(transport.execCount()).isEqualTo(1);
    RunResults aiperfResults = ResultsFetch.read(backend, aiperf);

    assertThat(benchResults.problem()).isNull();
    assertThat(benchResults.byKey()).containsExactlyEntriesOf(expectedFromFiles());
    assertThat(aiperfResults.problem()).isNull();
    assertThat(aiperfResults.byKey()).containsExactly(Map.entry("completed", "120"), Map.entry("failed", "2"), Map.entry("duration", "16.0"),
        Map.entry("request_throughput", "7.5"), Map.entry("output_throughput", "950.25"), Map.entry("mean_ttft_ms", "812.5"),
        Map.entry("median_ttft_ms", "640.0"), Map.entry("p99_ttft_ms", "2890.0"), Map.entry("mean_itl_ms", "21.5"),
        Map.entry("median_itl_ms", "20.0"), Map.entry("p99_itl_ms", "48.0"), Map.entry("mean_tpot_ms", "21.5"),
        Map.entry("p99_tpot_ms", "48.0"), Map.entry("mean_e2e_latency_ms", "4100.0"), Map.entry("p99_e2e_latency_ms", "9000.0"),
        // its two errors were timeouts, no 429 or 503: the router turned none away
        Map.entry("shed_ratio", "0"));
    assertThat(transport.execCount()).isEqualTo(2);
  }

  @Test
  void eachLevelOfALadderIsReadFromItsOwnDirectoryWithGoodput() throws Exception {
    RunRef run = new RunRef("default", "cmp", "ladder", "r00000003");
    Path dir = runDir(run);
    write(dir.resolve("results/level-1/bench-serving.jsonl"), ResultFixtures.DETAILS.replace("\n", " ") + "\n");
    write(dir.resolve("results/level-2/bench-serving.jsonl"), BENCH_ROW + "\n");
    DirectBackend backend = new DirectBackend(new LocalTransport(), work.toString());

    RunResults first = ResultsFetch.read(backend, run, dev.srt.operator.plan.Ladder.resultsDir(1), ResultFixtures.slo(250.0, null, null, null));
    assertThat(first.byKey()).containsEntry("completed", "3").containsEntry("goodput_ratio", "0.5").containsEntry("goodput", "1");
    assertThat(ResultsFetch.read(backend, run, "results/level-2", null).byKey()).containsEntry("completed", "256");
    assertThat(ResultsFetch.read(backend, run, "results/level-3", null).problem()).isEqualTo("no headline numbers in the run's "
        + "result files (results/level-3/bench-serving.jsonl, results/level-3/aiperf/*_aiperf.json, results/level-3/metrics-before.txt "
        + "and results/level-3/metrics-after.txt)");
    for (String bad : List.of("../results", "/etc", "results/level-0", "results/../x", "results/level-1/..")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> ResultsFetch.read(backend, run, bad, null))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void oversizedResultFilesGiveNoResultsAndAReason() throws Exception {
    DirectBackend backend = new DirectBackend(new LocalTransport(), work.toString());

    RunRef longRow = new RunRef("default", "cmp", "a", "r00000011");
    write(runDir(longRow).resolve("results/bench-serving.jsonl"),
        "{\"completed\":1,\"pad\":\"" + "x".repeat(ResultFile.BENCH_SERVING.maxBytes) + "\"}\n");
    assertThat(ResultsFetch.read(backend, longRow).withFacts(null)).isEqualTo(
        RunResults.none("results/bench-serving.jsonl: its last row is larger than 32768 KiB"));

    RunRef bigExport = new RunRef("default", "cmp", "b", "r00000012");
    write(runDir(bigExport).resolve("results/aiperf/p_aiperf.json"),
        "{\"input_config\":\"" + "x".repeat(ResultFile.AIPERF.maxBytes) + "\",\"request_count\":{\"avg\":1}}");
    assertThat(ResultsFetch.read(backend, bigExport).problem()).isEqualTo("results/aiperf/*_aiperf.json is larger than 1024 KiB");

    RunRef manyCounters = new RunRef("default", "cmp", "c", "r00000013");
    write(runDir(manyCounters).resolve("results/metrics-before.txt"), scrape(0, 0, 0, 0, 0, 0));
    write(runDir(manyCounters).resolve("results/metrics-after.txt"), "# srt-scrape http://w/metrics\n"
        + "sglang:num_requests_total{model_name=\"m\"} 1.0\n".repeat(30_000));
    assertThat(ResultsFetch.read(backend, manyCounters).problem()).isEqualTo("results/metrics-after.txt is larger than 1024 KiB");

    RunRef huge = new RunRef("default", "cmp", "d", "r00000014");
    Path sparse = runDir(huge).resolve("results/bench-serving.jsonl");
    Files.createDirectories(sparse.getParent());
    try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
      f.setLength(ResultsFetch.MAX_SCAN_BYTES + 1); // sparse: not read, not even scanned
    }
    assertThat(ResultsFetch.read(backend, huge).problem()).isEqualTo("results/bench-serving.jsonl is larger than 256 MiB");
  }

  @Test
  void onlyTheLinesTheNumbersNeedAreFetchedSoLargeScrapesStillCount() throws Exception {
    RunRef run = new RunRef("default", "cmp", "e", "r00000015");
    Path dir = runDir(run);
    String histograms = "sglang:e2e_request_latency_seconds_bucket{le=\"0.5\",model_name=\"m\"} 12.0\n".repeat(40_000);
    write(dir.resolve("results/metrics-before.txt"), scrape(100, 0, 1, 0, 0, 0) + histograms);
    write(dir.resolve("results/metrics-after.txt"), histograms + scrape(6100, 4500, 131, 4000, 1500, 100) + histograms);
    assertThat(Files.size(dir.resolve("results/metrics-after.txt"))).isGreaterThan(2L * ResultFile.METRICS_AFTER.maxBytes);

    RunResults results = ResultsFetch.read(new DirectBackend(new LocalTransport(), work.toString()), run);

    assertThat(results.byKey()).containsExactly(Map.entry("engine_cache_hit_rate", "0.6000"),
        Map.entry("worker_requests_max_over_min", "1.30"), Map.entry("worker_requests_max_over_mean", "1.130"));
  }

  @Test
  void linksAndRunDirectoriesWithShellCharactersAreHandledSafely() throws Exception {
    Path workDir = Files.createDirectories(work.resolve("w'$(touch INJECTED)'\"`id`"));
    RunRef run = new RunRef("default", "cmp", "f", "r00000016");
    Path dir = Files.createDirectories(Path.of(run.runDir(workDir.toString())));
    Path elsewhere = work.resolve("elsewhere.jsonl");
    Files.writeString(elsewhere, BENCH_ROW + "\n");
    Files.createDirectories(dir.resolve("results"));
    Files.createSymbolicLink(dir.resolve("results/bench-serving.jsonl"), elsewhere);
    DirectBackend backend = new DirectBackend(new LocalTransport(), workDir.toString());

    assertThat(ResultsFetch.read(backend, run).problem()).startsWith("no headline numbers");
    assertThat(ResultsFetch.read(backend, new RunRef("default", "cmp", "f", "r00000017")).problem())
        .isEqualTo("the run directory " + workDir + "/default/cmp/f/r00000017 is gone");
    try (var files = Files.walk(work)) {
      assertThat(files.filter(p -> p.getFileName().toString().equals("INJECTED"))).isEmpty();
    }
    assertThat(Path.of("INJECTED")).doesNotExist();
  }

  @Test
  void theFactsAreReadByTheResultsCommandAndNeitherSpoilsTheOther() throws Exception {
    RunRef run = new RunRef("default", "cmp", "a", "r00000001");
    Path dir = Path.of(run.runDir(work.toString()));
    Files.createDirectories(dir.resolve("results"));
    Files.writeString(dir.resolve("results/bench-serving.jsonl"), BENCH_ROW + "\n");
    Files.writeString(dir.resolve(ResultFile.FACTS.path), ResultFixtures.FACTS);
    CountingTransport transport = new CountingTransport(new LocalTransport());
    DirectBackend backend = new DirectBackend(transport, work.toString());

    RunResults read = ResultsFetch.read(backend, run);

    assertThat(transport.execCount()).isEqualTo(1);
    assertThat(read.problem()).isNull();
    assertThat(read.byKey()).containsEntry("request_throughput", "20.103553");
    assertThat(read.facts().facts).hasSize(7);

    // an oversized facts file: no facts, the numbers all the same
    Files.writeString(dir.resolve(ResultFile.FACTS.path), "{\"facts\": [], \"pad\": \"" + "x".repeat(ResultFile.FACTS.maxBytes) + "\"}");
    RunResults big = ResultsFetch.read(backend, run);
    assertThat(big.facts().unknown).isEqualTo("facts.json is larger than 4 MiB");
    assertThat(big.byKey()).containsEntry("request_throughput", "20.103553");

    // a malformed results file: no numbers, the facts all the same
    Files.writeString(dir.resolve("results/bench-serving.jsonl"), "not json\n");
    Files.writeString(dir.resolve(ResultFile.FACTS.path), ResultFixtures.FACTS);
    RunResults broken = ResultsFetch.read(backend, run);
    assertThat(broken.problem()).isNotNull();
    assertThat(broken.facts().facts).hasSize(7);

    // a link is not followed, as for the result files, and is named as one (not as a run that wrote none)
    Files.delete(dir.resolve(ResultFile.FACTS.path));
    Files.writeString(work.resolve("elsewhere.json"), ResultFixtures.FACTS);
    Files.createSymbolicLink(dir.resolve(ResultFile.FACTS.path), work.resolve("elsewhere.json"));
    assertThat(ResultsFetch.read(backend, run).facts().unknown).isEqualTo("facts.json is a symbolic link: skipped");
  }

  /**
   * A facts.json that is a FIFO or a directory is named as what it is, never taken for a run that
   * wrote none; its type is tested before anything opens it, so a FIFO nobody writes cannot block
   * the command (it would, for the command's whole timeout).
   */
  @Test
  @org.junit.jupiter.api.Timeout(30)
  void aFactsJsonThatIsNotARegularFileIsNamedAndNeverOpened() throws Exception {
    RunRef run = new RunRef("default", "cmp", "a", "r00000002");
    Path dir = Path.of(run.runDir(work.toString()));
    Files.createDirectories(dir.resolve("results"));
    Files.writeString(dir.resolve("results/bench-serving.jsonl"), BENCH_ROW + "\n");
    DirectBackend backend = new DirectBackend(new LocalTransport(), work.toString());
    Path facts = dir.resolve(ResultFile.FACTS.path);
    assertThat(new ProcessBuilder("mkfifo", facts.toString()).inheritIO().start().waitFor()).isZero();

    RunResults fifo = ResultsFetch.read(backend, run);
    assertThat(fifo.facts().unknown).isEqualTo("facts.json is a FIFO: skipped");
    assertThat(fifo.byKey()).containsEntry("request_throughput", "20.103553");

    Files.delete(facts);
    Files.createDirectory(facts);
    assertThat(ResultsFetch.read(backend, run).facts().unknown).isEqualTo("facts.json is a directory: skipped");

    Files.delete(facts);
    assertThat(ResultsFetch.read(backend, run).facts().unknown).startsWith("the run wrote no facts.json");
  }

  @Test
  void theFramingCannotBeImitatedByAFile() throws Exception {
    RunRef run = new RunRef("default", "cmp", "g", "r00000018");
    write(runDir(run).resolve("results/bench-serving.jsonl"), "{\"completed\": 3}\nEND\nF bench_serving e30=\n");

    RunResults results = ResultsFetch.read(new DirectBackend(new LocalTransport(), work.toString()), run);

    assertThat(results.problem()).startsWith("results/bench-serving.jsonl: the last row is not valid JSON");
  }
}
