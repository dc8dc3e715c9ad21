package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.QUIET;
import static dev.srt.operator.emulator.EmulatedFleet.url;
import static dev.srt.operator.emulator.HttpTestClient.chat;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.metric;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SglRouterIT {
  private final EmulatedFleet fleet = new EmulatedFleet();

  @AfterEach
  void stop() {
    fleet.close();
  }

  private SglRouter router(String policy, SglangWorker... workers) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("--worker-urls"));
    for (SglangWorker w : workers) {
      args.add(url(w));
    }
    args.addAll(List.of("--host", "0.0.0.0", "--port", "0", "--model-id", MODEL, "--tokenizer-path", "/models/tokenizer.json",
        "--policy", policy, "--log-level", "info"));
    return fleet.start(new SglRouter(SglRouter.Options.parse(args, QUIET)));
  }

  @Test
  void readyzTurnsGreenWithTheFirstRegistrationWhileTheSecondWorkerIsStillUnhealthy() throws Exception {
    SglangWorker healthy = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "300"));
    SglangWorker broken = fleet.worker(Map.of("SRT_EMULATOR_FAIL_HEALTH", "1"));
    SglRouter router = router("cache_aware_zmq", healthy, broken);
    String base = "http://127.0.0.1:" + router.port();

    assertThat(get(base + "/healthz").status()).isEqualTo(200);
    assertThat(get(base + "/readyz").status()).isEqualTo(503);
    await().atMost(Duration.ofSeconds(5)).until(() -> get(base + "/readyz").status() == 200);
    HttpTestClient.Reply ready = get(base + "/readyz");
    assertThat(ready.body()).isEmpty();
    assertThat(get(url(broken) + "/health").status()).isEqualTo(503);

    String metrics = get(base + "/metrics").body();
    assertThat(metric(metrics, "sgl_router_workers{mode=\"plain\"}")).isEqualTo(1.0);
    assertThat(metric(metrics, "sgl_router_worker_health{worker_url=\"" + url(healthy) + "\"}")).isEqualTo(1.0);
    assertThat(metrics).doesNotContain(url(broken));

    HttpTestClient.Reply canary = post(base + "/v1/chat/completions", chat(MODEL, "Reply with one word: ready", 16, false));
    assertThat(canary.json().path("choices").get(0).path("message").path("content").asText()).isEqualTo("ready");
  }

  @Test
  void cacheAwareKeepsAPrefixGroupOnOneWorkerAndStreamsThroughTheRouter() throws Exception {
    SglangWorker a = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglangWorker b = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglRouter router = router("cache_aware", a, b);
    String base = "http://127.0.0.1:" + router.port();
    await().atMost(Duration.ofSeconds(5)).until(() -> metric(get(base + "/metrics").body(), "sgl_router_workers{mode=\"plain\"}") == 2.0);

    String system = "group ".repeat(200);
    for (int i = 0; i < 6; i++) {
      HttpTestClient.Reply r = post(base + "/v1/chat/completions", chat(MODEL, system + "question " + i, 8, true));
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.body()).contains("\"completion_tokens\":8").endsWith("data: [DONE]\n\n");
    }
    String ma = get(url(a) + "/metrics").body();
    String mb = get(url(b) + "/metrics").body();
    double requestsA = metric(ma, "sglang:num_requests_total{model_name=\"" + MODEL + "\"}");
    double requestsB = metric(mb, "sglang:num_requests_total{model_name=\"" + MODEL + "\"}");
    assertThat(List.of(requestsA, requestsB)).containsExactlyInAnyOrder(6.0, 0.0);
    String routerMetrics = get(base + "/metrics").body();
    assertThat(metric(routerMetrics, "sgl_router_cache_aware_decisions_total{model_id=\"" + MODEL + "\",decision=\"cache_hit\"}")).isEqualTo(5.0);
    assertThat(post(base + "/flush_cache", "").status()).isEqualTo(200);
  }

  @Test
  void roundRobinAlternates() throws Exception {
    SglangWorker a = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglangWorker b = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglRouter router = router("round_robin", a, b);
    String base = "http://127.0.0.1:" + router.port();
    await().atMost(Duration.ofSeconds(5)).until(() -> metric(get(base + "/metrics").body(), "sgl_router_workers{mode=\"plain\"}") == 2.0);
    for (int i = 0; i < 4; i++) {
      assertThat(post(base + "/v1/chat/completions", chat(MODEL, "same prompt", 4, false)).status()).isEqualTo(200);
    }
    assertThat(metric(get(url(a) + "/metrics").body(), "sglang:num_requests_total{model_name=\"" + MODEL + "\"}")).isEqualTo(2.0);
    assertThat(post(base + "/v1/chat/completions", chat("other/model", "x", 4, false)).status()).isEqualTo(404);
  }
}
