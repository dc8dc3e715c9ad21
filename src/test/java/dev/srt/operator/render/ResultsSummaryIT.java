package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.host.DirectBackend;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.LocalTransport;
import dev.srt.operator.host.ResultsFetch;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.results.RunResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's headline numbers: the script reports which result files the benchmark wrote (one
 * {@code result} event each, no numbers), and the host layer computes bench_serving's (or
 * AIPerf's) headline numbers plus the engines' own prefix-cache hit rate and request spread from
 * the files, read by one command run by bash on this machine.
 */
class ResultsSummaryIT {
  private static final RunRef RUN = new RunRef("default", "cmp", "arm", "r0000abcd");

  @TempDir Path work;
  private Path runDir;
  private Path results;

  @BeforeEach
  void runDirectory() throws Exception {
    runDir = Files.createDirectories(Path.of(RUN.runDir(work.toString())));
    results = Files.createDirectories(runDir.resolve("results"));
  }

  private static String scrape(long prompt0, long cached0, long hostCached0, long requests0, long prompt1, long cached1, long requests1) {
    return """
        # srt-scrape http://127.0.0.1:8000/metrics
        # TYPE sgl_router_requests_total counter
        sgl_router_requests_total 900
        # srt-scrape http://127.0.0.1:6100/metrics
        # HELP sglang:prompt_tokens_total Number of prefill tokens processed.
        # TYPE sglang:prompt_tokens_total counter
        sglang:prompt_tokens_total{model_name="m"} %d.0
        sglang:cached_tokens_total{cache_source="device",model_name="m"} %d.0
        sglang:cached_tokens_total{cache_source="host",model_name="m"} %d.0
        sglang:num_requests_total{model_name="m"} %d.0
        # srt-scrape http://127.0.0.1:6132/metrics
        sglang:prompt_tokens_total{model_name="m"} %d.0
        sglang:cached_tokens_total{model_name="m"} %d.0
        sglang:num_requests_total{model_name="m"} %d.0
        # srt-scrape http://127.0.0.1:6164/metrics failed: <urlopen error [Errno 111] Connection refused>
        """.formatted(prompt0, cached0, hostCached0, requests0, prompt1, cached1, requests1);
  }

  /** The script's part: {@code srt_report_results results}, as a rendered script calls it. */
  private String reportedEvents() throws Exception {
    Bash.Result r = Bash.script(runDir, 30, "RUN_DIR=$PWD\nSRT_PYTHON=python3\n" + BashLibrary.text() + "\nsrt_report_results results");
    assertThat(r.code()).as(r.output()).isZero();
    Path events = runDir.resolve("events.jsonl");
    return Files.exists(events) ? Files.readString(events) : "";
  }

  private RunResults read() throws HostException {
    return ResultsFetch.read(new DirectBackend(new LocalTransport(), work.toString()), RUN);
  }

  @Test
  void engineHitRateAndSpreadCountOnlyWhatTheBenchmarkDid() throws Exception {
    Files.writeString(results.resolve("bench-serving.jsonl"),
        "{\"completed\":10,\"request_throughput\":1.5,\"mean_ttft_ms\":300.0}\n{\"completed\":256,\"request_throughput\":143.2,\"mean_ttft_ms\":399.1,\"p99_ttft_ms\":748.2}\n");
    // Before: the canary's traffic. During the benchmark worker 0 sees 6000 prompt tokens (4500 cached
    // on the device, 1000 more in host memory) and 130 requests, worker 1 4000 (1500 cached) and 100.
    Files.writeString(results.resolve("metrics-before.txt"), scrape(100, 0, 0, 1, 0, 0, 0));
    Files.writeString(results.resolve("metrics-after.txt"), scrape(6100, 4500, 1000, 131, 4000, 1500, 100));

    String events = reportedEvents();
    RunResults r = read();

    assertThat(events.lines()).hasSize(3).allMatch(l -> l.contains("\"event\":\"result\""));
    assertThat(events).contains("\"file\":\"results/bench-serving.jsonl\"", "\"file\":\"results/metrics-after.txt\"")
        .doesNotContain("summary");
    assertThat(r.problem()).isNull();
    assertThat(r.byKey()).containsExactly(Map.entry("completed", "256"), Map.entry("request_throughput", "143.2"),
        Map.entry("mean_ttft_ms", "399.1"), Map.entry("p99_ttft_ms", "748.2"),
        Map.entry("engine_cache_hit_rate", String.format(Locale.ROOT, "%.4f", (4500.0 + 1500) / (6000 + 4000))),
        Map.entry("worker_requests_max_over_min", String.format(Locale.ROOT, "%.2f", 130.0 / 100)),
        Map.entry("worker_requests_max_over_mean", String.format(Locale.ROOT, "%.3f", 130.0 / 115)));
  }

  @Test
  void withoutBenchServingTheEngineNumbersStillCount() throws Exception {
    Files.writeString(results.resolve("metrics-before.txt"), scrape(0, 0, 0, 0, 0, 0, 0));
    Files.writeString(results.resolve("metrics-after.txt"), scrape(1000, 250, 0, 10, 0, 0, 0));

    RunResults r = read();

    // A worker that served nothing makes max/min unbounded: not reported; max/mean says one of two took all.
    assertThat(r.byKey()).containsExactly(Map.entry("engine_cache_hit_rate", "0.2500"), Map.entry("worker_requests_max_over_mean", "2.000"));
  }

  @Test
  void anAiperfExportIsReadUnderBenchServingsNames() throws Exception {
    Files.createDirectories(results.resolve("aiperf"));
    Files.writeString(results.resolve("aiperf/agentx_aiperf.json"), """
        {"schema_version": "1.5", "request_count": {"unit": "requests", "avg": 120.0},
         "request_throughput": {"unit": "requests/sec", "avg": 7.5},
         "output_token_throughput": {"unit": "tokens/sec", "avg": 950.25},
         "time_to_first_token": {"unit": "ms", "avg": 812.5, "p50": 640.0, "p99": 2890.0, "count": 120},
         "inter_token_latency": {"unit": "ms", "avg": 21.5, "p99": 48.0},
         "request_latency": {"unit": "ms", "avg": 4100.0}}
        """);

    RunResults r = read();

    assertThat(r.byKey()).containsExactly(Map.entry("completed", "120"), Map.entry("request_throughput", "7.5"),
        Map.entry("output_throughput", "950.25"), Map.entry("mean_ttft_ms", "812.5"), Map.entry("median_ttft_ms", "640.0"),
        Map.entry("p99_ttft_ms", "2890.0"), Map.entry("mean_itl_ms", "21.5"), Map.entry("p99_itl_ms", "48.0"),
        Map.entry("mean_tpot_ms", "21.5"), Map.entry("p99_tpot_ms", "48.0"), Map.entry("mean_e2e_latency_ms", "4100.0"));
  }

  @Test
  void nothingToSummarizeGivesNoResultsAndSaysWhy() throws Exception {
    assertThat(reportedEvents()).isEmpty();
    assertThat(read().problem()).startsWith("no headline numbers in the run's result files");
  }
}
