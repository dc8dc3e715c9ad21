package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The emulated {@code aiperf profile}: a Mooncake trace keeps its prefix reuse, and the exports follow AIPerf's schema. */
class AiPerfIT {
  @TempDir Path dir;
  private final EmulatedFleet fleet = new EmulatedFleet();

  @AfterEach
  void stop() {
    fleet.close();
  }

  private AiPerf.Options options(String... extra) {
    List<String> argv = new ArrayList<>(List.of("profile", "--model", EmulatedFleet.MODEL, "--endpoint-type", "chat", "--streaming",
        "--random-seed", "42", "--output-artifact-dir", dir.resolve("aiperf").toString(), "--ui", "none"));
    argv.addAll(List.of(extra));
    return AiPerf.Options.parse(argv, Map.of("SRT_EMULATOR_BENCH_SCALE", "0.25"), EmulatedFleet.QUIET);
  }

  private double metric(SglangWorker w, String name) {
    return HttpTestClient.get(EmulatedFleet.url(w) + "/metrics").body().lines().filter(l -> l.startsWith(name))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  @Test
  void aMooncakeTraceReplaysOnItsScheduleWithItsSharedBlocks() throws Exception {
    SglangWorker worker = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    await().atMost(Duration.ofSeconds(5)).until(worker::isReady);
    Path trace = dir.resolve("trace.jsonl");
    Files.writeString(trace, """
        {"timestamp": 1000, "input_length": 1100, "output_length": 16, "hash_ids": [11, 12, 13]}
        {"timestamp": 1300, "input_length": 1100, "output_length": 16, "hash_ids": [11, 12, 14]}

        {"timestamp": 1600, "input_length": 600, "output_length": 8, "hash_ids": [21, 22]}
        """);

    AiPerf aiperf = new AiPerf(options("--url", EmulatedFleet.url(worker), "--input-file", trace.toString(),
        "--custom-dataset-type", "mooncake_trace", "--fixed-schedule", "--fixed-schedule-auto-offset",
        "--extra-inputs", "ignore_eos:true", "--profile-export-prefix", "agentx"), EmulatedFleet.QUIET, EmulatedFleet.QUIET);
    long t0 = System.nanoTime();
    assertThat(aiperf.run()).isZero();

    // The schedule (auto-offset: 0, 300, 600 ms) was kept, and the second request reused two blocks of the first.
    assertThat((System.nanoTime() - t0) / 1e6).isGreaterThanOrEqualTo(600);
    assertThat(metric(worker, "sglang:num_requests_total")).isEqualTo(3);
    assertThat(metric(worker, "sglang:cached_tokens_total")).isGreaterThanOrEqualTo(2 * 128);
    JsonNode export = Json.parse(Files.readString(dir.resolve("aiperf/agentx_aiperf.json")));
    assertThat(export.path("schema_version").asText()).isEqualTo("1.4");
    assertThat(export.path("request_count").path("avg").asInt()).isEqualTo(3);
    JsonNode ttft = export.path("time_to_first_token");
    assertThat(ttft.path("unit").asText()).isEqualTo("ms");
    assertThat(ttft.path("count").asInt()).isEqualTo(3);
    assertThat(ttft.path("p99").asDouble()).isGreaterThanOrEqualTo(ttft.path("p50").asDouble()).isPositive();
    assertThat(export.path("output_sequence_length").path("sum").asDouble()).isEqualTo(4 + 4 + 2);
    assertThat(export.path("input_sequence_length").path("max").asDouble()).isEqualTo(275);
    assertThat(export.path("error_summary")).isEmpty();
    assertThat(Files.readAllLines(dir.resolve("aiperf/agentx.jsonl"))).hasSize(3);
  }

  @Test
  void syntheticPromptsAtAConcurrency() throws Exception {
    SglangWorker worker = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    await().atMost(Duration.ofSeconds(5)).until(worker::isReady);

    AiPerf aiperf = new AiPerf(options("--url", EmulatedFleet.url(worker), "--request-count", "6", "--concurrency", "2",
        "--synthetic-input-tokens-mean", "80", "--output-tokens-mean", "16"), EmulatedFleet.QUIET, EmulatedFleet.QUIET);
    assertThat(aiperf.run()).isZero();

    JsonNode export = Json.parse(Files.readString(dir.resolve("aiperf/profile_export_aiperf.json")));
    assertThat(export.path("request_count").path("avg").asInt()).isEqualTo(6);
    assertThat(export.path("input_sequence_length").path("avg").asDouble()).isEqualTo(20);
    assertThat(export.path("request_throughput").path("avg").asDouble()).isPositive();
    assertThat(metric(worker, "sglang:num_requests_total")).isEqualTo(6);
    // one record per request in AIPerf's format, each with its gaps between chunks
    List<String> records = Files.readAllLines(dir.resolve("aiperf/profile_export.jsonl"));
    assertThat(records).hasSize(6);
    JsonNode r = Json.parse(records.get(0));
    assertThat(r.path("metadata").path("benchmark_phase").asText()).isEqualTo("profiling");
    assertThat(r.path("metadata").path("request_end_ns").asLong()).isGreaterThan(r.path("metadata").path("request_start_ns").asLong());
    assertThat(r.has("error")).as("0.13.0 writes no error key for a success").isFalse();
    assertThat(r.at("/metrics/time_to_first_token/unit").asText()).isEqualTo("ms");
    assertThat(r.at("/metrics/inter_chunk_latency/value").size()).isPositive();
    assertThat(r.at("/metrics/request_latency/value").asDouble()).isGreaterThan(r.at("/metrics/time_to_first_token/value").asDouble());
    assertThat(r.at("/metrics/output_sequence_length/value").asInt()).isEqualTo(4);
  }

  @Test
  void aRateAloneIsAnOpenLoopAndADurationSendsUntilItIsOver() throws Exception {
    SglangWorker worker = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    await().atMost(Duration.ofSeconds(5)).until(worker::isReady);
    AiPerf.Options open = options("--url", EmulatedFleet.url(worker), "--request-rate", "40", "--benchmark-duration", "1",
        "--synthetic-input-tokens-mean", "80", "--output-tokens-mean", "64");
    assertThat(open.concurrency()).as("no --concurrency with a rate: no bound").isEqualTo(AiPerf.UNBOUNDED);
    assertThat(options("--url", "http://x").concurrency()).isEqualTo(1);

    long t0 = System.nanoTime();
    assertThat(new AiPerf(open, EmulatedFleet.QUIET, EmulatedFleet.QUIET).run()).isZero();
    double seconds = (System.nanoTime() - t0) / 1e9;

    // Poisson arrivals at 40/s for one second, cycling the 10 prompts: about 40 requests, not --request-count's 10
    JsonNode export = Json.parse(Files.readString(dir.resolve("aiperf/profile_export_aiperf.json")));
    assertThat(export.path("request_count").path("avg").asInt()).isBetween(20, 70);
    assertThat(seconds).isLessThan(10);
    assertThat(export.at("/input_config/phases/0").has("concurrency")).isFalse();
  }

  @Test
  void whenEveryRequestFailsItFailsWithoutASummaryAsAIPerf0130Does() throws Exception {
    // An engine that never becomes ready lists its model but answers every chat request 503.
    SglangWorker worker = fleet.worker(Map.of("SRT_EMULATOR_FAIL_HEALTH", "1"));
    AiPerf aiperf = new AiPerf(options("--url", EmulatedFleet.url(worker), "--request-count", "2"), EmulatedFleet.QUIET, EmulatedFleet.QUIET);
    assertThat(aiperf.run()).as("aiperf 0.13.0 exits 1 when no request succeeded").isEqualTo(1);
    assertThat(dir.resolve("aiperf/profile_export_aiperf.json")).doesNotExist();
    List<String> records = Files.readAllLines(dir.resolve("aiperf/profile_export.jsonl"));
    assertThat(records).hasSize(2);
    JsonNode failed = Json.parse(records.get(0));
    assertThat(failed.at("/error/code").asInt()).isEqualTo(503);
    assertThat(failed.at("/metrics/error_isl/value").isIntegralNumber()).isTrue();
    assertThat(failed.path("metadata").has("request_ack_ns")).as("no answer, no ack").isFalse();
  }

  @Test
  void theWarmUpIsSentAndRecordedInItsOwnPhaseButNotCounted() throws Exception {
    SglangWorker worker = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    await().atMost(Duration.ofSeconds(5)).until(worker::isReady);
    AiPerf aiperf = new AiPerf(options("--url", EmulatedFleet.url(worker), "--request-count", "3", "--warmup-request-count", "2",
        "--synthetic-input-tokens-mean", "40", "--output-tokens-mean", "4"), EmulatedFleet.QUIET, EmulatedFleet.QUIET);
    assertThat(aiperf.run()).isZero();

    assertThat(metric(worker, "sglang:num_requests_total")).isEqualTo(5);
    JsonNode export = Json.parse(Files.readString(dir.resolve("aiperf/profile_export_aiperf.json")));
    assertThat(export.at("/request_count/avg").asDouble()).isEqualTo(3.0);
    List<JsonNode> records = Files.readAllLines(dir.resolve("aiperf/profile_export.jsonl")).stream().map(Json::parse).toList();
    assertThat(records).extracting(r -> r.at("/metadata/benchmark_phase").asText())
        .containsExactly("warmup", "warmup", "profiling", "profiling", "profiling");
    assertThat(records.get(0).path("metadata").has("profiling_index")).isFalse();
    assertThat(records.get(2).at("/metadata/phase_index").asInt()).isEqualTo(1);
    assertThat(records.get(2).has("error")).as("a success has no error key").isFalse();
  }
}
