package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.HttpTestClient.chat;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.metric;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SglangWorkerIT {
  private static final String MODEL = "Qwen/Qwen3-32B-FP8";
  private final List<SglangWorker> started = new ArrayList<>();

  private SglangWorker start(Map<String, String> env, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("--model-path", "/models/Qwen3-32B-FP8", "--served-model-name", MODEL,
        "--port", "0", "--page-size", "16", "--enable-metrics",
        "--kv-events-config", "{\"publisher\":\"zmq\",\"topic\":\"kv-events\",\"endpoint\":\"tcp://*:5200\"}"));
    args.addAll(List.of(extra));
    SglangWorker w = new SglangWorker(SglangWorker.Options.parse(args, env, new PrintStream(new ByteArrayOutputStream())));
    started.add(w);
    w.start();
    return w;
  }

  private static String url(SglangWorker w) {
    return "http://127.0.0.1:" + w.port();
  }

  @AfterEach
  void stop() {
    started.forEach(SglangWorker::close);
  }

  @Test
  void healthTurnsGreenAfterTheStartupDelayAndServerInfoDescribesTheKvPublisher() throws Exception {
    SglangWorker w = start(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "400"));
    assertThat(get(url(w) + "/health").status()).isEqualTo(503);
    await().atMost(Duration.ofSeconds(5)).until(() -> get(url(w) + "/health").status() == 200);
    JsonNode info = get(url(w) + "/server_info").json();
    assertThat(info.path("kv_events").toString())
        .isEqualTo("{\"publisher\":\"zmq\",\"endpoint_host\":\"*\",\"endpoint_port_base\":5200,\"topic\":\"kv-events\",\"block_size\":16,\"dp_size\":1}");
    assertThat(get(url(w) + "/v1/models").json().path("data").get(0).path("id").asText()).isEqualTo(MODEL);
    assertThat(get(url(w) + "/model_info").json().path("model_path").asText()).isEqualTo("/models/Qwen3-32B-FP8");
  }

  /**
   * {@code /server_info} and {@code /get_server_info} are the engine's effective arguments: every
   * flag it was given under its field name (typed, whether the emulator uses it or not), and the
   * emulated flags' defaults resolved as SGLang resolves them, a seed drawn once when none is given.
   */
  @Test
  void serverInfoReportsTheArgumentsItWasStartedWithDefaultsResolved() throws Exception {
    SglangWorker w = start(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--mem-fraction-static", "0.85", "--trust-remote-code",
        "--cuda-graph-bs", "1", "2", "--tp", "4");
    await().atMost(Duration.ofSeconds(5)).until(() -> get(url(w) + "/health").status() == 200);
    JsonNode info = get(url(w) + "/get_server_info").json();

    assertThat(info.path("tp_size").asInt()).isEqualTo(4);
    assertThat(info.path("mem_fraction_static").isDouble()).isTrue();
    assertThat(info.path("mem_fraction_static").asDouble()).isEqualTo(0.85);
    assertThat(info.path("trust_remote_code").asBoolean()).isTrue();
    assertThat(info.path("cuda_graph_bs").toString()).isEqualTo("[1,2]");
    assertThat(info.path("tokenizer_path").asText()).isEqualTo("/models/Qwen3-32B-FP8");
    assertThat(info.path("host").asText()).isEqualTo("127.0.0.1");
    assertThat(info.path("grpc_port").isNull()).isTrue();
    assertThat(info.path("nnodes").asInt()).isEqualTo(1);
    assertThat(info.path("dist_init_addr").isNull()).isTrue();
    assertThat(info.path("stream_interval").asInt()).isEqualTo(1);
    assertThat(info.path("random_seed").isIntegralNumber()).isTrue();
    assertThat(get(url(w) + "/server_info").json().path("random_seed")).as("drawn once").isEqualTo(info.path("random_seed"));
    assertThat(info.path("version").asText()).isEqualTo(SglangWorker.VERSION);

    SglangWorker seeded = start(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--random-seed", "1234");
    await().atMost(Duration.ofSeconds(5)).until(() -> get(url(seeded) + "/health").status() == 200);
    assertThat(get(url(seeded) + "/server_info").json().path("random_seed").asLong()).isEqualTo(1234);
  }

  /** A multi-node worker: the leader serves only once its follower rank joined, and fails when it leaves. */
  @Test
  void aMultiNodeLeaderWaitsForItsFollowerAndFailsWhenItLeaves() throws Exception {
    int rendezvous;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
      rendezvous = probe.getLocalPort();
    }
    String addr = "127.0.0.1:" + rendezvous;
    SglangWorker leader = start(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--nnodes", "2", "--node-rank", "0", "--dist-init-addr", addr);
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> get(url(leader) + "/health").status() == 503);

    SglangWorker follower = start(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--nnodes", "2", "--node-rank", "1", "--dist-init-addr", addr);
    await().atMost(Duration.ofSeconds(5)).until(() -> get(url(leader) + "/health").status() == 200);
    assertThat(leader.isReady()).isTrue();
    assertThat(follower.isReady()).as("a follower serves no HTTP of its own").isFalse();

    follower.close();
    var exit = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return leader.awaitExit();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    assertThat(exit.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
  }

  @Test
  void failHealthKeepsTheWorkerStarting() throws Exception {
    SglangWorker w = start(Map.of("SRT_EMULATOR_FAIL_HEALTH", "1", "SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> get(url(w) + "/health").status() == 503);
    assertThat(post(url(w) + "/v1/chat/completions", chat(MODEL, "hi", 4, false)).status()).isEqualTo(503);
  }

  @Test
  void answersTheCanaryAndReportsCachedTokensForASharedPrefix() throws Exception {
    SglangWorker w = start(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    await().atMost(Duration.ofSeconds(5)).until(w::isReady);
    JsonNode canary = post(url(w) + "/v1/chat/completions", chat(MODEL, "Reply with one word: ready", 16, false)).json();
    assertThat(canary.path("choices").get(0).path("message").path("content").asText()).isEqualTo("ready");
    String system = "shared ".repeat(100);
    JsonNode first = post(url(w) + "/v1/chat/completions", chat(MODEL, system + "first question", 8, false)).json();
    JsonNode second = post(url(w) + "/v1/chat/completions", chat(MODEL, system + "second question", 8, false)).json();
    assertThat(first.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isZero();
    assertThat(second.path("usage").path("prompt_tokens").asInt()).isEqualTo(104);
    assertThat(second.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isEqualTo(96);

    String metrics = get(url(w) + "/metrics").body();
    assertThat(metric(metrics, "sglang:num_requests_total{model_name=\"" + MODEL + "\"}")).isEqualTo(3.0);
    // the canary is 8 tokens: <|user|> Reply with one word ##: ready <|assistant|>
    assertThat(metric(metrics, "sglang:prompt_tokens_total{model_name=\"" + MODEL + "\"}")).isEqualTo(8 + 104 + 104);
    assertThat(metric(metrics, "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"" + MODEL + "\"}")).isEqualTo(96.0);
    assertThat(metric(metrics, "sglang:generation_tokens_total{model_name=\"" + MODEL + "\"}")).isEqualTo(17.0);

    assertThat(post(url(w) + "/flush_cache", "").status()).isEqualTo(200);
    JsonNode third = post(url(w) + "/v1/chat/completions", chat(MODEL, system + "second question", 8, false)).json();
    assertThat(third.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isZero();
  }

  @Test
  void streamsOpenAiChunksEndingWithUsageAndDone() throws Exception {
    SglangWorker w = start(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    await().atMost(Duration.ofSeconds(5)).until(w::isReady);
    var body = Json.parse(chat(MODEL, "tell me a story", 40, true));
    ((com.fasterxml.jackson.databind.node.ObjectNode) body).put("ignore_eos", true);
    HttpTestClient.Reply r = post(url(w) + "/v1/chat/completions", Json.write(body));
    List<String> events = r.body().lines().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
    assertThat(events.get(events.size() - 1)).isEqualTo("[DONE]");
    JsonNode usage = Json.parse(events.get(events.size() - 2)).path("usage");
    assertThat(usage.path("completion_tokens").asInt()).isEqualTo(40);
    List<JsonNode> chunks = events.subList(0, events.size() - 2).stream().map(Json::parse).toList();
    assertThat(chunks.get(0).path("choices").get(0).path("delta").path("role").asText()).isEqualTo("assistant");
    assertThat(chunks.get(chunks.size() - 1).path("choices").get(0).path("finish_reason").asText()).isEqualTo("length");
    String text = chunks.stream().map(c -> c.path("choices").get(0).path("delta").path("content").asText()).reduce("", String::concat);
    assertThat(ChatPrompt.countWords(text)).isEqualTo(40);
  }

  @Test
  void theNativePortOpensOnceReadyServesGetServerInfoAndEndsItsStateStreamWithTheEngine() throws Exception {
    SglangWorker w = start(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "300"), "--grpc-port", "0");
    assertThat(w.grpcPort()).isEqualTo(-1);
    await().atMost(Duration.ofSeconds(5)).until(() -> w.grpcPort() > 0);
    try (EngineGrpcClient client = new EngineGrpcClient("127.0.0.1", w.grpcPort())) {
      JsonNode info = client.serverInfo(5000);
      assertThat(info.path("port").asInt()).isEqualTo(w.port());
      assertThat(info.path("served_model_name").asText()).isEqualTo(MODEL);
      assertThat(info.path("kv_events").path("block_size").asInt()).isEqualTo(16);
      var ended = java.util.concurrent.CompletableFuture.supplyAsync(client::watchUntilGone);
      w.close();
      assertThat(ended.get(10, java.util.concurrent.TimeUnit.SECONDS).isOk()).isFalse();
    }
  }
}
