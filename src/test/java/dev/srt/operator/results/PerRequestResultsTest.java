package dev.srt.operator.results;

import static dev.srt.operator.results.ResultFixtures.DETAILS;
import static dev.srt.operator.results.ResultFixtures.scrape;
import static dev.srt.operator.results.ResultFixtures.slo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.srt.operator.api.SloSpec;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The numbers computed from each request the benchmark recorded (bench_serving's
 * {@code --output-details}, AIPerf's records), against values worked out by hand.
 */
class PerRequestResultsTest {
  static RunResults bench(String row, SloSpec slo) {
    Map<ResultFile, byte[]> files = new EnumMap<>(ResultFile.class);
    files.put(ResultFile.BENCH_SERVING, row.getBytes(StandardCharsets.UTF_8));
    return ResultsParser.parse(files, slo, "results/level-2");
  }

  @Test
  void percentilesOfTheRequestsFillInWhatTheRowDoesNotSay() {
    Map<String, String> m = bench(DETAILS, null).byKey();
    // TTFT over the three successes [100, 200, 300]: numpy's linear p90 = 200 + 0.8 · 100, p99 = 200 + 0.98 · 100
    assertThat(m).containsEntry("mean_ttft_ms", "200").containsEntry("median_ttft_ms", "200").containsEntry("p90_ttft_ms", "280")
        .containsEntry("p99_ttft_ms", "298");
    // every gap [10, 20, 30, 50, 50]
    assertThat(m).containsEntry("mean_itl_ms", "32").containsEntry("median_itl_ms", "30").containsEntry("p90_itl_ms", "50")
        .containsEntry("p99_itl_ms", "50");
    // TPOT: 60/3 = 20 and 100/2 = 50 (one token has none); e2e = TTFT + gaps: 160, 400, 200
    assertThat(m).containsEntry("mean_tpot_ms", "35").containsEntry("p99_tpot_ms", "49.7");
    assertThat(m).containsEntry("mean_e2e_latency_ms", "253.3333333").containsEntry("p99_e2e_latency_ms", "396");
    assertThat(m).containsEntry("failed", "1").containsEntry("completed", "3");
    assertThat(m).doesNotContainKeys("goodput", "goodput_ratio");
  }

  @Test
  void theRequestsLatencyDistributionsComeWithTheNumbers() {
    var latency = bench(DETAILS, null).latency();
    // the successes' TTFTs [100, 200, 300]: the quantile at p% is 100 + 2p (linear between ranks)
    assertThat(latency.ttftMs()).hasSize(101);
    assertThat(latency.ttftMs()[0]).isCloseTo(100, within(1e-9));
    assertThat(latency.ttftMs()[25]).isCloseTo(150, within(1e-9));
    assertThat(latency.ttftMs()[100]).isCloseTo(300, within(1e-9));
    // every gap [10, 20, 30, 50, 50]: p50 is the third, p90 between the fourth and the fifth
    assertThat(latency.itlMs()[50]).isCloseTo(30, within(1e-9));
    assertThat(latency.itlMs()[90]).isCloseTo(50, within(1e-9));
    // failed requests only: numbers, no distribution
    assertThat(bench("""
        {"duration": 1.0, "completed": 0, "input_lens": [1], "output_lens": [0], "ttfts": [0.0], "itls": [[]],
         "generated_texts": [""], "errors": ["refused"]}
        """, null).latency()).isNull();
  }

  /**
   * A level where the router turned every request away, as SGLang's bench_serving writes it: it only
   * warns, and its row has completed 0 with the latencies of an empty list (np.mean(ttfts or 0): 0).
   * Those zeros measured nothing: no latency is read from them, and with an SLO the level met it for
   * none of the requests sent (goodput 0, ratio 0), rather than having no goodput at all.
   */
  @Test
  void aLevelWhereEveryRequestFailedHasGoodputZeroAndNoLatency() {
    String row = """
        {"duration": 2.0, "completed": 0, "request_throughput": 0.0, "mean_ttft_ms": 0.0, "median_ttft_ms": 0.0, "p99_ttft_ms": 0.0,
         "mean_itl_ms": 0.0, "p99_itl_ms": 0.0, "mean_e2e_latency_ms": 0.0, "p99_e2e_latency_ms": 0.0,
         "input_lens": [10, 10, 10], "output_lens": [0, 0, 0], "ttfts": [0.0, 0.0, 0.0], "itls": [[], [], []],
         "generated_texts": ["", "", ""], "errors": ["Service Unavailable", "Service Unavailable", "Too Many Requests"]}
        """;
    Map<String, String> m = bench(row, slo(2000.0, null, null, null)).byKey();
    assertThat(m).containsEntry("completed", "0").containsEntry("failed", "3").containsEntry("request_throughput", "0.0")
        .containsEntry("goodput_ratio", "0").containsEntry("goodput", "0").containsEntry("shed_ratio", "1");
    assertThat(m).doesNotContainKeys("mean_ttft_ms", "median_ttft_ms", "p99_ttft_ms", "mean_itl_ms", "p99_itl_ms", "mean_e2e_latency_ms",
        "p99_e2e_latency_ms");
  }

  @Test
  void theToolsOwnNumbersWin() {
    Map<String, String> m = bench(DETAILS.replace("\"duration\": 2.0,", "\"duration\": 2.0, \"p99_ttft_ms\": 301.5,"), null).byKey();
    assertThat(m).containsEntry("p99_ttft_ms", "301.5").containsEntry("p90_ttft_ms", "280");
  }

  @Test
  void aRequestIsGoodWhenEveryThresholdSetHolds() {
    // TTFT ≤ 250 and the p99 of its own gaps ≤ 40: the first (p99 of 10, 20, 30 = 29.8) and the third (no gaps)
    RunResults r = bench(DETAILS, slo(250.0, 40.0, null, null));
    assertThat(r.byKey()).containsEntry("goodput", "1").containsEntry("goodput_ratio", "0.5");
    // the first request's gaps have a p99 of 29.8 (the second's 50): at 30 it meets the ITL, at 29 not
    assertThat(bench(DETAILS, slo(null, 30.0, null, null)).byKey()).containsEntry("goodput_ratio", "0.5")
        .containsEntry("goodput", "1");
    assertThat(bench(DETAILS, slo(null, 29.0, null, null)).byKey()).containsEntry("goodput_ratio", "0.25")
        .containsEntry("goodput", "0.5");
    // TPOT 20 and 50 (a one-token request has none and meets it); e2e 160, 400, 200
    assertThat(bench(DETAILS, slo(null, null, 25.0, null)).byKey()).containsEntry("goodput_ratio", "0.5");
    assertThat(bench(DETAILS, slo(null, null, null, 300.0)).byKey()).containsEntry("goodput_ratio", "0.5");
    assertThat(bench(DETAILS, slo(1000.0, 1000.0, 1000.0, 1000.0)).byKey()).as("all but the failed one")
        .containsEntry("goodput_ratio", "0.75").containsEntry("goodput", "1.5");
    assertThat(bench(DETAILS, slo(99.0, null, null, null)).byKey()).containsEntry("goodput_ratio", "0").containsEntry("goodput", "0");
  }

  @Test
  void withoutADurationThereIsARatioButNoRate() {
    assertThat(bench(DETAILS.replace("\"duration\": 2.0,", ""), slo(250.0, null, null, null)).byKey())
        .containsEntry("goodput_ratio", "0.5").doesNotContainKey("goodput");
  }

  @Test
  void perRequestListsMustAgreeAndHoldNumbers() {
    assertThat(bench(DETAILS.replace("\"output_lens\": [4, 3, 1, 0]", "\"output_lens\": [4, 3, 1]"), null).problem())
        .isEqualTo("results/level-2/bench-serving.jsonl: ttfts, itls, output_lens and errors have different lengths");
    assertThat(bench(DETAILS.replace("[[0.01, 0.02, 0.03]", "[\"EVIL\""), null).problem())
        .isEqualTo("results/level-2/bench-serving.jsonl: itls has an entry that is not a list");
    assertThat(bench(DETAILS.replace("[0.1, 0.3", "[-0.1, 0.3"), null).problem())
        .isEqualTo("results/level-2/bench-serving.jsonl: ttfts has an entry out of range (0 to 1e15)");
  }

  /** AIPerf's records: a success, a warm-up record (left out) and a failure. */
  static final String RECORDS = """
      {"metadata": {"session_num": 0, "benchmark_phase": "profiling", "was_cancelled": false}, "metrics": {"input_sequence_length": {"value": 550, "unit": "tokens"}, "time_to_first_token": {"value": 100.0, "unit": "ms"}, "inter_chunk_latency": {"value": [10.0, 30.0], "unit": "ms"}, "request_latency": {"value": 0.15, "unit": "s"}, "inter_token_latency": {"value": 20.0, "unit": "ms"}, "output_sequence_length": {"value": 3, "unit": "tokens"}}, "error": null}
      {"metadata": {"benchmark_phase": "warmup"}, "metrics": {"time_to_first_token": {"value": 5000.0, "unit": "ms"}}, "error": null}

      {"metadata": {"session_num": 1, "benchmark_phase": "profiling"}, "metrics": {"error_isl": {"value": 550, "unit": "tokens"}}, "error": {"code": 503, "type": "ServiceUnavailable", "message": "shed"}}
      """;

  static RunResults aiperf(String records, SloSpec slo) {
    Map<ResultFile, byte[]> files = new EnumMap<>(ResultFile.class);
    files.put(ResultFile.AIPERF, "{\"benchmark_duration\": {\"unit\": \"sec\", \"avg\": 1.0}}".getBytes(StandardCharsets.UTF_8));
    files.put(ResultFile.AIPERF_RECORDS, records.getBytes(StandardCharsets.UTF_8));
    return ResultsParser.parse(files, slo, "results");
  }

  @Test
  void aiperfRecordsGiveTheSameNumbers() {
    RunResults r = aiperf(RECORDS, slo(200.0, 35.0, null, 150.0));
    assertThat(r.problem()).isNull();
    // one profiling success of two profiling requests: TTFT 100, gaps p99 29.8, e2e 0.15 s = 150 ms
    assertThat(r.byKey()).containsEntry("mean_ttft_ms", "100").containsEntry("p99_itl_ms", "29.8")
        .containsEntry("mean_e2e_latency_ms", "150").containsEntry("mean_tpot_ms", "20")
        .containsEntry("goodput_ratio", "0.5").containsEntry("goodput", "1");
    assertThat(aiperf(RECORDS, slo(null, 29.0, null, null)).byKey()).containsEntry("goodput_ratio", "0");
    assertThat(aiperf(RECORDS.replace("\"unit\": \"s\"", "\"unit\": \"tokens\""), null).problem())
        .isEqualTo("results/aiperf/*.jsonl: line 1: request_latency is in a unit that is not a time (ms, s, us, ns)");
    assertThat(aiperf("{\"metrics\": [1]}\n", null).problem()).isEqualTo("results/aiperf/*.jsonl: line 1: metrics is not an object");
    assertThat(aiperf("{}\n{\"x\": EVIL}\n", null).problem()).startsWith("results/aiperf/*.jsonl: line 2 is not valid JSON");
  }

  @Test
  void moreCachedThanPromptTokensIsNoHitRate() {
    Map<ResultFile, byte[]> files = new EnumMap<>(ResultFile.class);
    files.put(ResultFile.METRICS_BEFORE, scrape(0, 0, 0, 0, 0, 0).getBytes(StandardCharsets.UTF_8));
    files.put(ResultFile.METRICS_AFTER, scrape(100, 300, 3, 100, 50, 1).getBytes(StandardCharsets.UTF_8));
    // 350 cached of 200 prompt tokens would be a hit rate of 1.75; the spread is still known
    assertThat(ResultsParser.parse(files).byKey()).doesNotContainKey("engine_cache_hit_rate")
        .containsEntry("worker_requests_max_over_min", "3.00").containsEntry("worker_requests_max_over_mean", "1.500");
  }
}
