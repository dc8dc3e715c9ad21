package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.QUIET;
import static dev.srt.operator.emulator.EmulatedFleet.url;
import static dev.srt.operator.emulator.HttpTestClient.chat;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.metric;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The emulated SGLang Model Gateway over emulated workers: its health, worker and metrics endpoints, and its routing. */
class SglModelGatewayIT {
  private final EmulatedFleet fleet = new EmulatedFleet();
  private final List<HttpServer> stubs = new ArrayList<>();

  @AfterEach
  void stop() {
    fleet.close();
    stubs.forEach(s -> s.stop(0));
  }

  private SglModelGateway gateway(String policy, List<String> workerUrls) throws Exception {
    List<String> args = new ArrayList<>(List.of("--worker-urls"));
    args.addAll(workerUrls);
    args.addAll(List.of("--host", "0.0.0.0", "--port", "0", "--prometheus-port", "0", "--policy", policy, "--log-level", "info"));
    return fleet.start(new SglModelGateway(SglModelGateway.Options.parse(args, QUIET), Map.of()));
  }

  @Test
  void readinessTurnsGreenWithTheFirstHealthyWorkerAndWorkersListsThePool() throws Exception {
    SglangWorker healthy = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "300"));
    SglangWorker broken = fleet.worker(Map.of("SRT_EMULATOR_FAIL_HEALTH", "1"));
    SglModelGateway gateway = gateway("cache_aware", List.of(url(healthy), url(broken)));
    String base = "http://127.0.0.1:" + gateway.port();

    assertThat(get(base + "/liveness").status()).isEqualTo(200);
    HttpTestClient.Reply notReady = get(base + "/readiness");
    assertThat(notReady.status()).isEqualTo(503);
    assertThat(notReady.json().path("status").asText()).isEqualTo("not_ready");
    await().atMost(Duration.ofSeconds(5)).until(() -> get(base + "/readiness").status() == 200);
    JsonNode ready = get(base + "/readiness").json();
    assertThat(ready.path("healthy_workers").asInt()).isEqualTo(1);

    JsonNode workers = get(base + "/workers").json();
    assertThat(workers.path("stats").path("regular_count").asInt()).isEqualTo(workers.path("total").asInt());
    assertThat(workers.path("workers")).anySatisfy(w -> {
      assertThat(w.path("url").asText()).isEqualTo(url(healthy));
      assertThat(w.path("is_healthy").asBoolean()).isTrue();
      assertThat(w.path("model_id").asText()).isEqualTo(MODEL);
    });

    // Prometheus text is on its own listener, not on the serving port.
    assertThat(get(base + "/metrics").status()).isEqualTo(404);
    String metrics = get("http://127.0.0.1:" + gateway.metricsPort() + "/metrics").body();
    assertThat(metric(metrics, "sgl_router_active_workers")).isEqualTo(1.0);

    HttpTestClient.Reply canary = post(base + "/v1/chat/completions", chat(MODEL, "Reply with one word: ready", 16, false));
    assertThat(canary.json().path("choices").get(0).path("message").path("content").asText()).isEqualTo("ready");
    assertThat(get(base + "/v1/models").json().path("data").get(0).path("id").asText()).isEqualTo(MODEL);
  }

  @Test
  void cacheAwareKeepsAPrefixGroupOnOneWorkerByTheTextItRouted() throws Exception {
    SglangWorker a = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglangWorker b = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglModelGateway gateway = gateway("cache_aware", List.of(url(a), url(b)));
    String base = "http://127.0.0.1:" + gateway.port();
    String metricsUrl = "http://127.0.0.1:" + gateway.metricsPort() + "/metrics";
    await().atMost(Duration.ofSeconds(5)).until(() -> metric(get(metricsUrl).body(), "sgl_router_active_workers") == 2.0);

    String system = "group ".repeat(200);
    for (int i = 0; i < 6; i++) {
      HttpTestClient.Reply r = post(base + "/v1/chat/completions", chat(MODEL, system + "question " + i, 8, true));
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.body()).endsWith("data: [DONE]\n\n");
    }
    double requestsA = metric(get(url(a) + "/metrics").body(), "sglang:num_requests_total{model_name=\"" + MODEL + "\"}");
    double requestsB = metric(get(url(b) + "/metrics").body(), "sglang:num_requests_total{model_name=\"" + MODEL + "\"}");
    assertThat(List.of(requestsA, requestsB)).containsExactlyInAnyOrder(6.0, 0.0);
    String metrics = get(metricsUrl).body();
    assertThat(metric(metrics, "sgl_router_cache_hits_total")).isEqualTo(5.0);
    assertThat(metric(metrics, "sgl_router_cache_misses_total")).isEqualTo(1.0);
  }

  @Test
  void completionsAndGenerateAreRelayedToTheSamePathOfTheChosenWorker() throws Exception {
    List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    SglModelGateway gateway = gateway("round_robin", List.of(stubWorker(seen), stubWorker(seen)));
    String base = "http://127.0.0.1:" + gateway.port();
    await().atMost(Duration.ofSeconds(5)).until(() -> get(base + "/readiness").json().path("healthy_workers").asInt() == 2);

    HttpTestClient.Reply completion = post(base + "/v1/completions", "{\"model\":\"m\",\"prompt\":\"Once upon\",\"max_tokens\":4}");
    HttpTestClient.Reply generate = post(base + "/generate", "{\"text\":\"Once upon\",\"sampling_params\":{\"max_new_tokens\":4}}");
    assertThat(completion.status()).isEqualTo(200);
    assertThat(generate.status()).isEqualTo(200);
    assertThat(completion.body()).contains("/v1/completions").contains("Once upon");
    assertThat(generate.body()).contains("/generate").contains("Once upon");
    // round robin: one request on each worker
    assertThat(seen).hasSize(2).doesNotHaveDuplicates();
  }

  @Test
  void itsArgumentsAreCheckedAsArgparseDoes() {
    assertThatThrownBy(() -> SglModelGateway.Options.parse(List.of("--worker-urls", "http://a:1", "--policy", "cache_aware_zmq"), QUIET))
        .hasMessage("argument --policy: invalid choice: 'cache_aware_zmq' (choose from 'random', 'round_robin', 'cache_aware', "
            + "'power_of_two', 'manual')");
    assertThatThrownBy(() -> SglModelGateway.Options.parse(List.of("--policy", "random"), QUIET))
        .hasMessageContaining("no --worker-urls");
    SglModelGateway.Options defaults = SglModelGateway.Options.parse(List.of("--worker-urls", "http://a:1"), QUIET);
    assertThat(defaults).isEqualTo(new SglModelGateway.Options(List.of("http://a:1"), 30000, 29000, "cache_aware", 0.3, 64, 1.5));
  }

  /** A worker that answers /server_info and /health, and echoes the path and body of anything else it is sent (with its own port). */
  private String stubWorker(List<String> seen) throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    stubs.add(s);
    s.createContext("/", ex -> {
      String path = ex.getRequestURI().getPath();
      byte[] in = ex.getRequestBody().readAllBytes();
      String body = switch (path) {
        case "/server_info" -> "{\"served_model_name\":\"m\"}";
        case "/health" -> "{}";
        default -> {
          seen.add(String.valueOf(s.getAddress().getPort()));
          yield "{\"path\":\"" + path + "\",\"echo\":" + new String(in, StandardCharsets.UTF_8) + "}";
        }
      };
      byte[] out = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.sendResponseHeaders(200, out.length);
      try (var os = ex.getResponseBody()) {
        os.write(out);
      }
    });
    s.start();
    return "http://127.0.0.1:" + s.getAddress().getPort();
  }
}
