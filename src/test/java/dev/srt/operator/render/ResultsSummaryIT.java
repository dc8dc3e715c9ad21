package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's {@code summary} event: bench_serving's headline numbers plus the engines' own
 * prefix-cache hit rate and request spread, from the scrapes before and after the benchmark.
 */
class ResultsSummaryIT {
  @TempDir Path results;

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

  private JsonNode summary() throws Exception {
    Bash.Result r = Bash.script(results, 30, "SRT_PYTHON=python3\n" + BashLibrary.text() + "\nsrt_probe summary \"$1\"", results.toString());
    assertThat(r.code()).as(r.output()).isZero();
    return new ObjectMapper().readTree(r.output());
  }

  @Test
  void engineHitRateAndSpreadCountOnlyWhatTheBenchmarkDid() throws Exception {
    Files.writeString(results.resolve("bench-serving.jsonl"),
        "{\"completed\":10,\"request_throughput\":1.5,\"mean_ttft_ms\":300.0}\n{\"completed\":256,\"request_throughput\":143.2,\"mean_ttft_ms\":399.1,\"p99_ttft_ms\":748.2}\n");
    // Before: the canary's traffic. During the benchmark worker 0 sees 6000 prompt tokens (4500 cached
    // on the device, 1000 more in host memory) and 130 requests, worker 1 4000 (1500 cached) and 100.
    Files.writeString(results.resolve("metrics-before.txt"), scrape(100, 0, 0, 1, 0, 0, 0));
    Files.writeString(results.resolve("metrics-after.txt"), scrape(6100, 4500, 1000, 131, 4000, 1500, 100));

    JsonNode s = summary();

    assertThat(s.path("completed").asText()).isEqualTo("256");
    assertThat(s.path("p99_ttft_ms").asText()).isEqualTo("748.2");
    assertThat(s.path("engine_cache_hit_rate").asText()).isEqualTo(String.format(java.util.Locale.ROOT, "%.4f", (4500.0 + 1500) / (6000 + 4000)));
    assertThat(s.path("worker_requests_max_over_min").asText()).isEqualTo(String.format(java.util.Locale.ROOT, "%.2f", 130.0 / 100));
  }

  @Test
  void withoutBenchServingTheEngineNumbersStillCount() throws Exception {
    Files.writeString(results.resolve("metrics-before.txt"), scrape(0, 0, 0, 0, 0, 0, 0));
    Files.writeString(results.resolve("metrics-after.txt"), scrape(1000, 250, 0, 10, 0, 0, 0));

    JsonNode s = summary();

    assertThat(s.has("completed")).isFalse();
    assertThat(s.path("engine_cache_hit_rate").asText()).isEqualTo("0.2500");
    // A worker that served nothing makes the spread unbounded: not reported.
    assertThat(s.has("worker_requests_max_over_min")).isFalse();
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

    JsonNode s = summary();

    assertThat(s.path("completed").asText()).isEqualTo("120.0");
    assertThat(s.path("request_throughput").asText()).isEqualTo("7.5");
    assertThat(s.path("output_throughput").asText()).isEqualTo("950.25");
    assertThat(s.path("mean_ttft_ms").asText()).isEqualTo("812.5");
    assertThat(s.path("median_ttft_ms").asText()).isEqualTo("640.0");
    assertThat(s.path("p99_ttft_ms").asText()).isEqualTo("2890.0");
    assertThat(s.path("p99_itl_ms").asText()).isEqualTo("48.0");
    assertThat(s.path("mean_e2e_latency_ms").asText()).isEqualTo("4100.0");
  }

  @Test
  void nothingToSummarizeIsAFailureTheScriptIgnores() throws Exception {
    Bash.Result r = Bash.script(results, 30, "SRT_PYTHON=python3\n" + BashLibrary.text() + "\nsrt_probe summary \"$1\"", results.toString());
    assertThat(r.code()).isEqualTo(1);
  }
}
