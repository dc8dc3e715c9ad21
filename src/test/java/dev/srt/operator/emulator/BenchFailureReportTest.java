package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How both benchmark stand-ins report failed requests (routers-and-benchmarks.md 8.1, 8.2, 9.1). */
class BenchFailureReportTest {
  private static final BenchServing.Outcome OK = new BenchServing.Outcome(true, 100, 4, 4, 0.5, 0.1, List.of(0.1, 0.1, 0.2),
      "one two three four five six seven eight nine ten", null);
  private static final RequestFailure SHED = RequestFailure.http(503, "{\"error\":{\"message\":\"shedding load\"}}");
  private static final BenchServing.Outcome FAILED = BenchServing.Outcome.failed(100, SHED);
  private static final BenchServing.Outcome REFUSED = BenchServing.Outcome.failed(100, RequestFailure.exception(new java.net.ConnectException("refused")));
  private static final List<BenchServing.Outcome> OUTCOMES = List.of(OK, FAILED, OK, FAILED, REFUSED);

  private static ObjectNode benchResult(String... extra) {
    List<String> argv = new java.util.ArrayList<>(List.of("--base-url", "http://127.0.0.1:1", "--num-prompts", "5"));
    argv.addAll(List.of(extra));
    BenchServing b = new BenchServing(BenchServing.Options.parse(argv, Map.of(), EmulatedFleet.QUIET), EmulatedFleet.QUIET,
        EmulatedFleet.QUIET);
    return b.result(OUTCOMES, 2.0, null);
  }

  @Test
  void benchServingCountsSuccessesOnly() {
    ObjectNode r = benchResult();
    assertThat(r.path("completed").asInt()).isEqualTo(2);
    assertThat(r.path("request_throughput").asDouble()).isEqualTo(1.0);
    assertThat(r.path("total_input_tokens").asInt()).isEqualTo(200);
    assertThat(r.has("errors")).as("details only with --output-details").isFalse();
  }

  @Test
  void benchServingOutputDetailsListEveryRequestWithItsError() {
    ObjectNode r = benchResult("--output-details");
    for (String key : List.of("input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors")) {
      assertThat(r.path(key).size()).as(key).isEqualTo(5);
    }
    assertThat(r.path("errors")).extracting(JsonNode::asText)
        .containsExactly("", "Service Unavailable", "", "Service Unavailable", "ConnectException: refused");
    assertThat(r.path("output_lens")).extracting(JsonNode::asInt).containsExactly(4, 0, 4, 0, 0);
    assertThat(r.path("ttfts").get(0).asDouble()).isEqualTo(0.1);
    assertThat(r.path("itls").get(0)).hasSize(3);
    assertThat(r.path("itls").get(1)).isEmpty();
    assertThat(r.path("generated_texts").get(0).asText()).isEqualTo("one two three four five six seven eight");
    assertThat(r.path("generated_texts").get(1).asText()).isEmpty();
  }

  @Test
  void aiPerfSummarisesErrorsByDetailsAndCountsSuccesses() {
    AiPerf a = new AiPerf(AiPerf.Options.parse(List.of("profile", "--model", "m", "--output-artifact-dir", Path.of("unused").toString()),
        Map.of(), EmulatedFleet.QUIET), EmulatedFleet.QUIET, EmulatedFleet.QUIET);
    ObjectNode export = a.export(OUTCOMES, 2.0, LocalDateTime.of(2026, 1, 1, 0, 0), LocalDateTime.of(2026, 1, 1, 0, 0, 2));
    assertThat(export.path("request_count").path("avg").asInt()).isEqualTo(2);
    assertThat(export.path("request_throughput").path("avg").asDouble()).isEqualTo(1.0);
    JsonNode summary = export.path("error_summary");
    assertThat(summary).hasSize(2);
    JsonNode first = summary.get(0);
    assertThat(first.path("count").asInt()).isEqualTo(2);
    assertThat(first.path("error_details").path("code").asInt()).isEqualTo(503);
    assertThat(first.path("error_details").path("type").asText()).isEqualTo("Service Unavailable");
    assertThat(first.path("error_details").path("message").asText()).contains("shedding load");
    JsonNode second = summary.get(1);
    assertThat(second.path("count").asInt()).isEqualTo(1);
    assertThat(second.path("error_details").path("code").isNull()).isTrue();
    assertThat(second.path("error_details").path("type").asText()).isEqualTo("ConnectException");
    assertThat(export.path("error_request_count").path("avg").asDouble()).isEqualTo(3.0);
  }

  @Test
  void aFailedRequestsRecordHasTheShapeOfTheRealToolsOne() throws Exception {
    // the real AIPerf 0.13.0's record of a request a router answered 503 (results/aiperf-0.13.0/shed)
    JsonNode real = Json.parse(Files.readAllLines(Path.of("src/test/resources/dev/srt/operator/results/aiperf-0.13.0/shed/profile_export.jsonl"))
        .stream().filter(l -> l.contains("\"error\":{")).findFirst().orElseThrow());
    BenchServing.Outcome failed = OUTCOMES.stream().filter(o -> !o.success()).findFirst().orElseThrow();
    JsonNode standIn = AiPerf.record(3, new AiPerf.Sent(failed, 1_000_000_000L), AiPerf.Phase.PROFILING, false);
    assertThat(JsonShape.of(standIn)).isEqualTo(JsonShape.of(real));
  }
}
