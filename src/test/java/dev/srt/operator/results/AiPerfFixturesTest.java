package dev.srt.operator.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The results layer over exports the real AIPerf 0.13.0 wrote (against the emulated engine and
 * router): {@code ok}, six requests after two warm-up ones; {@code shed}, twelve requests of which
 * a router that fell over answered ten with 503.
 */
class AiPerfFixturesTest {
  private static final Path FIXTURES = Path.of("src/test/resources/dev/srt/operator/results/aiperf-0.13.0");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Map<ResultFile, byte[]> files(String name) throws Exception {
    Map<ResultFile, byte[]> files = new EnumMap<>(ResultFile.class);
    files.put(ResultFile.AIPERF, Files.readAllBytes(FIXTURES.resolve(name).resolve("profile_export_aiperf.json")));
    files.put(ResultFile.AIPERF_RECORDS, Files.readAllBytes(FIXTURES.resolve(name).resolve("profile_export.jsonl")));
    return files;
  }

  private static JsonNode export(String name) throws Exception {
    return JSON.readTree(FIXTURES.resolve(name).resolve("profile_export_aiperf.json").toFile());
  }

  private static double metric(RunResults r, ResultMetric m) {
    return Double.parseDouble(r.metrics().get(m));
  }

  @Test
  void theSummaryIsReadUnderBenchServingsNames() throws Exception {
    JsonNode export = export("ok");
    assertThat(export.path("aiperf_version").asText()).isEqualTo("0.13.0");
    RunResults r = ResultsParser.parse(files("ok"));

    assertThat(r.problem()).isNull();
    assertThat(r.metrics()).containsEntry(ResultMetric.COMPLETED, "6").containsEntry(ResultMetric.FAILED, "0")
        .containsEntry(ResultMetric.SHED_RATIO, "0");
    assertThat(metric(r, ResultMetric.MEAN_TTFT_MS)).isEqualTo(export.at("/time_to_first_token/avg").asDouble());
    assertThat(metric(r, ResultMetric.P99_TTFT_MS)).isEqualTo(export.at("/time_to_first_token/p99").asDouble());
    assertThat(metric(r, ResultMetric.P99_ITL_MS)).isEqualTo(export.at("/inter_token_latency/p99").asDouble());
    assertThat(metric(r, ResultMetric.MEAN_TPOT_MS)).isEqualTo(export.at("/inter_token_latency/avg").asDouble());
    assertThat(metric(r, ResultMetric.MEAN_E2E_LATENCY_MS)).isEqualTo(export.at("/request_latency/avg").asDouble());
    assertThat(metric(r, ResultMetric.REQUEST_THROUGHPUT)).isEqualTo(export.at("/request_throughput/avg").asDouble());
    assertThat(metric(r, ResultMetric.OUTPUT_THROUGHPUT)).isEqualTo(export.at("/output_token_throughput/avg").asDouble());
    assertThat(metric(r, ResultMetric.DURATION)).isEqualTo(export.at("/benchmark_duration/avg").asDouble());
  }

  @Test
  void theRecordsOfTheWarmUpAreLeftOutAndSuccessesHaveNoErrorKey() throws Exception {
    List<String> lines = Files.readAllLines(FIXTURES.resolve("ok/profile_export.jsonl"));
    assertThat(lines).hasSize(8);
    JsonNode first = JSON.readTree(lines.get(0));
    assertThat(first.at("/metadata/benchmark_phase").asText()).isEqualTo("warmup");
    assertThat(first.has("error")).as("0.13.0 writes no error key for a success").isFalse();

    List<RequestRecord> requests = AiPerfRecords.parse(files("ok").get(ResultFile.AIPERF_RECORDS));
    assertThat(requests).hasSize(6).allMatch(RequestRecord::success);
    JsonNode third = JSON.readTree(lines.get(2));
    assertThat(requests.get(0).ttftMs()).isEqualTo(third.at("/metrics/time_to_first_token/value").asDouble());
    assertThat(requests.get(0).itlsMs()).hasSize(third.at("/metrics/inter_chunk_latency/value").size());
    assertThat(requests.get(0).e2eMs()).isEqualTo(third.at("/metrics/request_latency/value").asDouble());
  }

  @Test
  void failedRequestsAreCountedAndTheOnesTurnedAwayAreShed() throws Exception {
    JsonNode export = export("shed");
    assertThat(export.at("/error_summary/0/error_details/code").asInt()).isEqualTo(503);
    RunResults r = ResultsParser.parse(files("shed"));

    assertThat(r.problem()).isNull();
    assertThat(r.metrics()).containsEntry(ResultMetric.COMPLETED, "2").containsEntry(ResultMetric.FAILED, "10");
    assertThat(metric(r, ResultMetric.SHED_RATIO)).isCloseTo(10 / 12.0, within(1e-12));
    List<RequestRecord> requests = AiPerfRecords.parse(files("shed").get(ResultFile.AIPERF_RECORDS));
    assertThat(requests).hasSize(12);
    assertThat(requests.stream().filter(RequestRecord::success)).hasSize(2);
  }
}
