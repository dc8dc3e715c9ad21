package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.url;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.metric;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine endpoints the real SGLang Model Gateway relays or reads besides chat: native
 * {@code /generate}, {@code /v1/completions} (buffered and streamed) and {@code /get_load}.
 */
class SglangTextEndpointsIT {
  private static final String SERIES_REQUESTS = "sglang:num_requests_total{model_name=\"" + MODEL + "\"}";
  private static final String SERIES_CACHED = "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"" + MODEL + "\"}";
  /** 40 words: two full 16-token pages and a part. */
  /** 40 words of the emulated vocabulary: 40 tokens. */
  private static final String PROMPT = String.join(" ", List.of(
      "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo",
      "sierra tango uniform victor whiskey xray yankee zulu amber basalt cobalt dune ember fjord granite harbor iris jasper",
      "kelp lagoon meadow nectar"));

  private final EmulatedFleet fleet = new EmulatedFleet();

  @AfterEach
  void stop() {
    fleet.close();
  }

  private SglangWorker worker(Map<String, String> env) throws Exception {
    SglangWorker w = fleet.worker(env);
    await().atMost(Duration.ofSeconds(5)).until(w::isReady);
    return w;
  }

  private static String generate(String text, int maxNewTokens, boolean stream) {
    var body = Json.object().put("text", text).put("stream", stream);
    body.putObject("sampling_params").put("max_new_tokens", maxNewTokens).put("ignore_eos", true);
    return Json.write(body);
  }

  private static List<JsonNode> events(String sse) {
    List<String> data = sse.lines().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
    assertThat(data).last().isEqualTo("[DONE]");
    return data.subList(0, data.size() - 1).stream().map(Json::parse).toList();
  }

  @Test
  void generateAnswersInSglangsNativeShapeAndItsPromptFillsThePrefixCache() throws Exception {
    SglangWorker w = worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    String base = url(w);

    JsonNode first = post(base + "/generate", generate(PROMPT, 5, false)).json();
    assertThat(first.path("text").asText().split(" ")).hasSize(5);
    JsonNode meta = first.path("meta_info");
    assertThat(meta.path("id").asText()).isNotBlank();
    assertThat(meta.path("finish_reason").path("type").asText()).isEqualTo("length");
    assertThat(meta.path("finish_reason").path("length").asInt()).isEqualTo(5);
    assertThat(meta.path("prompt_tokens").asInt()).isEqualTo(40);
    assertThat(meta.path("completion_tokens").asInt()).isEqualTo(5);
    assertThat(meta.path("cached_tokens").asInt()).isZero();

    // the same prompt again finds its two full pages cached, as the engine's counters say too
    JsonNode again = post(base + "/generate", generate(PROMPT, 5, false)).json();
    assertThat(again.path("meta_info").path("cached_tokens").asInt()).isEqualTo(32);
    assertThat(again.path("text").asText()).isEqualTo(first.path("text").asText());
    String metrics = get(base + "/metrics").body();
    assertThat(metric(metrics, SERIES_REQUESTS)).isEqualTo(2.0);
    assertThat(metric(metrics, SERIES_CACHED)).isEqualTo(32.0);
  }

  @Test
  void generateStreamsTheTextSoFarAndTheFinishReasonLast() throws Exception {
    SglangWorker w = worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));

    HttpTestClient.Reply reply = post(url(w) + "/generate", generate(PROMPT, 4, true));
    assertThat(reply.status()).isEqualTo(200);
    List<JsonNode> events = events(reply.body());
    assertThat(events).hasSize(4);
    for (int i = 1; i < events.size(); i++) {
      // cumulative, as SGLang streams without --incremental-streaming-output
      assertThat(events.get(i).path("text").asText()).startsWith(events.get(i - 1).path("text").asText());
      assertThat(events.get(i - 1).path("meta_info").path("finish_reason").isNull()).isTrue();
    }
    JsonNode last = events.get(3).path("meta_info");
    assertThat(last.path("finish_reason").path("type").asText()).isEqualTo("length");
    assertThat(last.path("completion_tokens").asInt()).isEqualTo(4);
  }

  @Test
  void completionsAnswerAsOpenAiTextCompletionsBufferedAndStreamed() throws Exception {
    SglangWorker w = worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    String base = url(w);

    var body = Json.object().put("model", MODEL).put("prompt", PROMPT).put("max_tokens", 6).put("ignore_eos", true);
    JsonNode buffered = post(base + "/v1/completions", Json.write(body)).json();
    assertThat(buffered.path("object").asText()).isEqualTo("text_completion");
    assertThat(buffered.path("id").asText()).startsWith("cmpl-");
    assertThat(buffered.path("model").asText()).isEqualTo(MODEL);
    JsonNode choice = buffered.path("choices").get(0);
    assertThat(choice.path("text").asText().split(" ")).hasSize(6);
    assertThat(choice.path("finish_reason").asText()).isEqualTo("length");
    assertThat(buffered.path("usage").path("prompt_tokens").asInt()).isEqualTo(40);
    assertThat(buffered.path("usage").path("completion_tokens").asInt()).isEqualTo(6);

    body.put("stream", true).putObject("stream_options").put("include_usage", true);
    List<JsonNode> events = events(post(base + "/v1/completions", Json.write(body)).body());
    JsonNode usage = events.get(events.size() - 1);
    assertThat(usage.path("choices")).isEmpty();
    assertThat(usage.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isEqualTo(32);
    List<JsonNode> chunks = events.subList(0, events.size() - 1);
    String streamed = chunks.stream().map(c -> c.path("choices").get(0).path("text").asText()).reduce("", String::concat);
    assertThat(streamed).isEqualTo(choice.path("text").asText());
    assertThat(chunks.get(chunks.size() - 1).path("choices").get(0).path("finish_reason").asText()).isEqualTo("length");
  }

  @Test
  void getLoadCountsTheRequestsInFlightAndTheirPromptTokens() throws Exception {
    // slow decoding keeps one request in flight long enough to be seen
    SglangWorker w = worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0", "SRT_EMULATOR_SPEED", "0.02", "SRT_EMULATOR_NOISE", "0"));
    String base = url(w);
    assertThat(get(base + "/get_load").json()).singleElement().satisfies(rank -> {
      assertThat(rank.path("dp_rank").asInt()).isZero();
      assertThat(rank.path("num_reqs").asInt()).isZero();
      assertThat(rank.path("num_waiting_reqs").asInt()).isZero();
      assertThat(rank.path("num_tokens").asLong()).isZero();
    });

    CompletableFuture<HttpTestClient.Reply> slow = CompletableFuture.supplyAsync(() -> post(base + "/generate", generate(PROMPT, 30, false)));
    await().atMost(Duration.ofSeconds(10)).until(() -> get(base + "/get_load").json().get(0).path("num_reqs").asInt() == 1);
    assertThat(get(base + "/get_load").json().get(0).path("num_tokens").asLong()).isEqualTo(40);
    assertThat(slow.get().status()).isEqualTo(200);
    assertThat(get(base + "/get_load").json().get(0).path("num_reqs").asInt()).isZero();
  }

  @Test
  void aBatchOrTokenIdPromptIsRefusedAsNotEmulated() throws Exception {
    SglangWorker w = worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    HttpTestClient.Reply reply = post(url(w) + "/v1/completions", "{\"model\":\"m\",\"prompt\":[1,2,3]}");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.body()).contains("not emulated");
  }
}
