package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.QUIET;
import static dev.srt.operator.emulator.HttpTestClient.chat;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.metric;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prefill/decode disaggregation: P and D engines behind their sidecars, the frontend routing P then D. */
class DynamoDisaggIT {
  private static final Map<String, String> FAST = Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0");

  @TempDir Path tmp;
  private final EmulatedFleet fleet = new EmulatedFleet();

  @AfterEach
  void stop() {
    fleet.close();
  }

  private Map<String, String> env() {
    return Map.of("DYN_DISCOVERY_BACKEND", "file", "DYN_FILE_KV", tmp.resolve("dynamo-discovery").toString());
  }

  private DynamoSidecar sidecar(SglangWorker engine, String... args) throws Exception {
    await().atMost(Duration.ofSeconds(5)).until(() -> engine.grpcPort() > 0);
    List<String> argv = new ArrayList<>(List.of("--grpc-endpoint", "127.0.0.1:" + engine.grpcPort()));
    argv.addAll(List.of(args));
    return fleet.start(new DynamoSidecar(DynamoSidecar.Options.parse(argv, env(), QUIET), env(), QUIET));
  }

  /** The registrations in the file store, as the frontend reads them. */
  private List<JsonNode> registrations() throws Exception {
    List<JsonNode> out = new ArrayList<>();
    try (var files = java.nio.file.Files.walk(tmp.resolve("dynamo-discovery"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
        out.add(Json.parse(java.nio.file.Files.readString(f)));
      }
    }
    return out;
  }

  private static List<String> components(String base) {
    List<String> c = new ArrayList<>();
    get(base + "/health").json().path("instances").forEach(i -> c.add(i.path("component").asText()));
    return c;
  }

  private static boolean ready(String base) {
    return get(base + "/v1/models/Qwen%2FQwen3-32B-FP8/ready").json().path("ready").asBoolean();
  }

  private static double engineMetric(SglangWorker w, String name) {
    return metric(get(EmulatedFleet.url(w) + "/metrics").body(), name + "{model_name=\"" + MODEL + "\"}");
  }

  @Test
  void requestsArePrefilledOnAPrefillEngineThenDecodedOnADecodeEngine() throws Exception {
    DynamoFrontend frontend = fleet.start(new DynamoFrontend(DynamoFrontend.Options.parse(
        List.of("--http-port", "0", "--router-mode", "kv"), env(), QUIET), env(), QUIET));
    String base = "http://127.0.0.1:" + frontend.port();

    SglangWorker decode = fleet.worker(FAST, "--grpc-port", "0", "--disaggregation-mode", "decode",
        "--disaggregation-transfer-backend", "nixl");
    sidecar(decode);
    await().atMost(Duration.ofSeconds(5)).until(() -> components(base).equals(List.of("backend")));
    assertThat(ready(base)).as("decode alone does not serve").isFalse();
    HttpTestClient.Reply refused = post(base + "/v1/chat/completions", chat(MODEL, "hello", 4, false));
    assertThat(refused.status()).isEqualTo(503);
    assertThat(refused.body()).contains("no prefill workers available");

    SglangWorker prefill = fleet.worker(FAST, "--grpc-port", "0", "--disaggregation-mode", "prefill",
        "--disaggregation-bootstrap-port", "0", "--disaggregation-transfer-backend", "nixl");
    // the rendered scripts publish the prefill node's address; on a loopback host the engines still meet on 127.0.0.1
    sidecar(prefill, "--bootstrap-host", "10.213.117.11");
    await().atMost(Duration.ofSeconds(5)).until(() -> ready(base));
    assertThat(components(base)).containsExactlyInAnyOrder("backend", "prefill");

    JsonNode info = get(EmulatedFleet.url(prefill) + "/server_info").json();
    assertThat(info.path("disaggregation_mode").asText()).isEqualTo("prefill");
    assertThat(info.path("disaggregation_bootstrap_port").asInt()).isPositive();
    // the prefill registration carries its bootstrap server, the decode one none
    assertThat(registrations()).filteredOn(r -> r.path("component").asText().equals("prefill")).singleElement()
        .satisfies(r -> {
          assertThat(r.path("bootstrap_host").asText()).isEqualTo("10.213.117.11");
          assertThat(r.path("bootstrap_port").asInt()).isEqualTo(info.path("disaggregation_bootstrap_port").asInt());
        });
    assertThat(registrations()).filteredOn(r -> r.path("component").asText().equals("backend")).singleElement()
        .satisfies(r -> assertThat(r.has("bootstrap_host")).isFalse());
    assertThat(info.path("disaggregation_transfer_backend").asText()).isEqualTo("nixl");
    assertThat(get(EmulatedFleet.url(decode) + "/server_info").json().path("disaggregation_mode").asText()).isEqualTo("decode");

    String system = "shared system prompt ".repeat(40);
    JsonNode first = post(base + "/v1/chat/completions", chat(MODEL, system + "first", 8, false)).json();
    assertThat(first.path("usage").path("completion_tokens").asInt()).isEqualTo(8);
    assertThat(first.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isZero();
    JsonNode second = post(base + "/v1/chat/completions", chat(MODEL, system + "second", 8, false)).json();
    assertThat(second.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt())
        .as("the prefill engine's prefix cache, reported through the decode engine").isGreaterThan(64);
    HttpTestClient.Reply streamed = post(base + "/v1/chat/completions", chat(MODEL, system + "third", 8, true));
    assertThat(streamed.status()).isEqualTo(200);
    assertThat(streamed.body()).endsWith("data: [DONE]\n\n");

    assertThat(engineMetric(prefill, "sglang:num_requests_total")).isEqualTo(3);
    assertThat(engineMetric(decode, "sglang:num_requests_total")).isEqualTo(3);
    assertThat(engineMetric(prefill, "sglang:prompt_tokens_total")).isGreaterThan(3 * 120);
    assertThat(metric(get(EmulatedFleet.url(prefill) + "/metrics").body(),
        "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"" + MODEL + "\"}")).isGreaterThan(128);
    assertThat(engineMetric(prefill, "sglang:generation_tokens_total")).isZero();
    assertThat(engineMetric(decode, "sglang:prompt_tokens_total")).as("the prompt was prefilled elsewhere").isZero();
    assertThat(engineMetric(decode, "sglang:generation_tokens_total")).isEqualTo(24);

    HttpTestClient.Reply direct = post(EmulatedFleet.url(decode) + "/v1/chat/completions", chat(MODEL, "hi", 4, false));
    assertThat(direct.status()).isEqualTo(400);
    assertThat(direct.body()).contains("bootstrap_room");
  }

  @Test
  void aDecodeEngineThatCannotReachThePrefillBootstrapServerFailsTheRequest() throws Exception {
    SglangWorker decode = fleet.worker(FAST, "--disaggregation-mode", "decode");
    await().atMost(Duration.ofSeconds(5)).until(decode::isReady);
    var body = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(chat(MODEL, "hi", 4, false));
    body.put("bootstrap_host", "127.0.0.1").put("bootstrap_port", 1).put("bootstrap_room", 7);
    HttpTestClient.Reply r = post(EmulatedFleet.url(decode) + "/v1/chat/completions", Json.write(body));
    assertThat(r.status()).isEqualTo(500);
    assertThat(r.body()).contains("KV transfer for bootstrap room 7");
  }
}
