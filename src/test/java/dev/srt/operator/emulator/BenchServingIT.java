package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.QUIET;
import static dev.srt.operator.emulator.EmulatedFleet.url;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.metric;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchServingIT {
  /** The keys of one result line of bench_serving (routers-and-benchmarks.md, section 8.1). */
  static final List<String> RESULT_KEYS = List.of("tag", "backend", "dataset_name", "request_rate", "max_concurrency",
      "sharegpt_output_len", "random_input_len", "random_output_len", "random_range_ratio", "server_info", "duration",
      "completed", "total_input_tokens", "total_input_text_tokens", "total_input_vision_tokens", "total_output_tokens",
      "total_output_tokens_retokenized", "request_throughput", "input_throughput", "output_throughput", "total_throughput",
      "mean_e2e_latency_ms", "median_e2e_latency_ms", "std_e2e_latency_ms", "p90_e2e_latency_ms", "p95_e2e_latency_ms",
      "p99_e2e_latency_ms", "mean_ttft_ms", "median_ttft_ms", "std_ttft_ms", "p90_ttft_ms", "p95_ttft_ms", "p99_ttft_ms",
      "mean_tpot_ms", "median_tpot_ms", "std_tpot_ms", "p90_tpot_ms", "p95_tpot_ms", "p99_tpot_ms", "mean_itl_ms",
      "median_itl_ms", "std_itl_ms", "p90_itl_ms", "p95_itl_ms", "p99_itl_ms", "concurrency", "accept_length",
      "max_output_tokens_per_s", "max_concurrent_requests");

  @TempDir Path tmp;
  private final EmulatedFleet fleet = new EmulatedFleet();

  @AfterEach
  void stop() {
    fleet.close();
  }

  @Test
  void appendsOneTruthfulResultLineAgainstTheRouter() throws Exception {
    SglangWorker a = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglangWorker b = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglRouter router = fleet.start(new SglRouter(SglRouter.Options.parse(List.of("--worker-urls", url(a), url(b),
        "--port", "0", "--model-id", MODEL, "--policy", "cache_aware"), QUIET)));
    String base = "http://127.0.0.1:" + router.port();
    await().atMost(Duration.ofSeconds(5)).until(() -> metric(get(base + "/metrics").body(), "sgl_router_workers{mode=\"plain\"}") == 2.0);

    dev.srt.operator.host.RunRef run = new dev.srt.operator.host.RunRef("default", "cmp", "arm", "r00000001");
    Path out = Path.of(run.runDir(tmp.toString())).resolve("results/bench-serving.jsonl");
    ByteArrayOutputStream summary = new ByteArrayOutputStream();
    BenchServing.Options opts = BenchServing.Options.parse(List.of("--backend", "sglang-oai-chat", "--base-url", base,
        "--model", MODEL, "--dataset-name", "generated-shared-prefix", "--gsp-num-groups", "4", "--gsp-prompts-per-group", "8",
        "--gsp-system-prompt-len", "256", "--gsp-question-len", "32", "--gsp-output-len", "16", "--max-concurrency", "8",
        "--seed", "3", "--output-file", out.toString(), "--output-details", "--disable-tqdm", "--tokenizer", "/models/tokenizer"),
        Map.of("SRT_EMULATOR_BENCH_SCALE", "1"), QUIET);
    int exit = new BenchServing(opts, new PrintStream(summary, true, StandardCharsets.UTF_8), QUIET).run();

    assertThat(exit).isZero();
    List<String> lines = Files.readAllLines(out);
    assertThat(lines).hasSize(1);
    JsonNode r = Json.parse(lines.get(0));
    assertThat(r.fieldNames()).toIterable().containsAll(RESULT_KEYS);
    assertThat(r.path("completed").asInt()).isEqualTo(32);
    assertThat(r.path("total_input_tokens").asLong()).isEqualTo(32 * (256 + 32));
    assertThat(r.path("total_output_tokens").asLong()).isEqualTo(32 * 16);
    assertThat(r.path("total_output_tokens_retokenized").asLong()).isEqualTo(32 * 16);
    assertThat(r.path("request_rate").asText()).isEqualTo("inf");
    assertThat(r.path("max_concurrency").asInt()).isEqualTo(8);
    assertThat(r.path("max_concurrent_requests").asInt()).isBetween(1, 8);
    assertThat(r.path("server_info").isNull()).isTrue();
    assertThat(r.path("mean_ttft_ms").asDouble()).isPositive();
    assertThat(r.path("mean_e2e_latency_ms").asDouble()).isGreaterThanOrEqualTo(r.path("mean_ttft_ms").asDouble());
    assertThat(r.path("request_throughput").asDouble()).isCloseTo(32 / r.path("duration").asDouble(), org.assertj.core.api.Assertions.within(1e-6));
    assertThat(summary.toString()).contains("Serving Benchmark Result").containsPattern("Successful requests:\\s+32\\n");

    double cached = metric(get(url(a) + "/metrics").body(), "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"" + MODEL + "\"}")
        + metric(get(url(b) + "/metrics").body(), "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"" + MODEL + "\"}");
    assertThat(cached).as("the shared prefixes hit the engines' caches").isGreaterThan(0);

    // the host layer reads the per-request details: goodput against an objective every request meets, and one none meets
    var backend = new dev.srt.operator.host.DirectBackend(new dev.srt.operator.host.LocalTransport(), tmp.toString());
    dev.srt.operator.api.SloSpec lenient = new dev.srt.operator.api.SloSpec();
    lenient.ttftMs = 60_000.0;
    lenient.itlMs = 60_000.0;
    var read = dev.srt.operator.host.ResultsFetch.read(backend, run, "results", lenient);
    assertThat(read.problem()).isNull();
    var results = read.asStatus();
    assertThat(results.goodputRatio).isEqualTo(1.0);
    assertThat(results.goodput).isCloseTo(32 / r.path("duration").asDouble(), org.assertj.core.api.Assertions.within(1e-6));
    assertThat(results.p90TtftMs).isBetween(r.path("median_ttft_ms").asDouble(), r.path("p99_ttft_ms").asDouble());
    dev.srt.operator.api.SloSpec impossible = new dev.srt.operator.api.SloSpec();
    impossible.ttftMs = 0.001;
    assertThat(dev.srt.operator.host.ResultsFetch.read(backend, run, "results", impossible).asStatus().goodputRatio).isZero();
  }

  /**
   * Every request rejected: like SGLang's bench_serving, a warning, a row with {@code completed} 0
   * and the latencies of an empty list (0), and exit 0 (the real tool only warns "All requests
   * failed"), so that a run whose router shed everything is a measured run, not a failed one.
   */
  @Test
  void aBenchmarkWhoseRequestsAllFailWarnsAndExitsZeroAsTheRealOneDoes() throws Exception {
    SglangWorker w = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    await().atMost(Duration.ofSeconds(5)).until(w::isReady);
    Path out = tmp.resolve("bench.jsonl");
    BenchServing.Options opts = BenchServing.Options.parse(List.of("--base-url", url(w), "--model", MODEL, "--num-prompts", "4",
        "--random-input-len", "8", "--random-output-len", "4", "--output-file", out.toString(), "--extra-request-body",
        "{\"messages\": []}", "--warmup-requests", "0"), Map.of("SRT_EMULATOR_BENCH_SCALE", "1"), QUIET);
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    assertThat(new BenchServing(opts, QUIET, new java.io.PrintStream(err, true, StandardCharsets.UTF_8)).run()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("UserWarning: All requests failed.");
    JsonNode row = Json.parse(Files.readString(out));
    assertThat(row.path("completed").asInt()).isZero();
    assertThat(row.path("mean_ttft_ms").asDouble()).as("np.mean(ttfts or 0)").isZero();
    assertThat(row.path("request_throughput").asDouble()).isZero();
  }
}
