package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.QUIET;
import static dev.srt.operator.emulator.EmulatedFleet.url;
import static dev.srt.operator.emulator.HttpTestClient.chat;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code SRT_EMULATOR_FAIL_RATIO}: the routers answer 503 to that share of inference requests made under load, and only to those. */
class LoadSheddingIT {
  @TempDir Path tmp;
  private final EmulatedFleet fleet = new EmulatedFleet();

  @AfterEach
  void stop() {
    fleet.close();
  }

  /**
   * Keeps one chat request in flight at the router: its headers announce a body that never comes,
   * so the router holds it (the load that lets it shed others) until the socket closes.
   */
  private static Socket requestInFlight(int port) throws Exception {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
    OutputStream out = s.getOutputStream();
    out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: 1000\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return s;
  }

  private static boolean shed(HttpTestClient.Reply r) {
    return r.status() == 503 && r.body().contains("shedding load");
  }

  private SglRouter sglRouter(Map<String, String> env, SglangWorker worker) throws Exception {
    return fleet.start(new SglRouter(SglRouter.Options.parse(List.of("--worker-urls", url(worker), "--port", "0", "--model-id", MODEL,
        "--policy", "round_robin"), QUIET), env));
  }

  @Test
  void sglRouterShedsInferenceUnderLoadAndNeverHealthMetricsOrModels() throws Exception {
    SglangWorker worker = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglRouter router = sglRouter(Map.of("SRT_EMULATOR_FAIL_RATIO", "1"), worker);
    String base = "http://127.0.0.1:" + router.port();
    await().atMost(Duration.ofSeconds(5)).until(() -> get(base + "/readyz").status() == 200);

    assertThat(post(base + "/v1/chat/completions", chat(MODEL, "alone on the router", 4, false)).status())
        .as("a request on an idle router is never shed (the canary, the warm-up)").isEqualTo(200);
    // Shed only under load: two other requests in flight (one could be the last, still being counted).
    try (Socket busy = requestInFlight(router.port()); Socket busier = requestInFlight(router.port())) {
      await().atMost(Duration.ofSeconds(5)).until(() -> shed(post(base + "/v1/chat/completions", chat(MODEL, "x", 4, true))));
      for (String path : List.of("/healthz", "/readyz", "/metrics", "/v1/models")) {
        assertThat(get(base + path).status()).as(path).isEqualTo(200);
      }
    }
  }

  @Test
  void aBenchmarkWhoseWarmUpBurstIsPartlyShedStillMeasures() throws Exception {
    SglangWorker worker = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"));
    SglRouter router = sglRouter(Map.of("SRT_EMULATOR_FAIL_RATIO", "1"), worker);
    String base = "http://127.0.0.1:" + router.port();
    await().atMost(Duration.ofSeconds(5)).until(() -> get(base + "/readyz").status() == 200);
    Path out = tmp.resolve("bench.jsonl");
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    // bench_serving stops on its warm-up only when no warm-up request succeeded; 16 at once on a
    // router that sheds everything under load lose all but the first few
    BenchServing.Options opts = BenchServing.Options.parse(List.of("--backend", "sglang-oai-chat", "--base-url", base,
        "--model", MODEL, "--num-prompts", "8", "--random-input-len", "8", "--random-output-len", "4",
        "--max-concurrency", "4", "--warmup-requests", "16", "--output-file", out.toString(), "--disable-tqdm"),
        Map.of("SRT_EMULATOR_BENCH_SCALE", "1"), QUIET);
    int exit = new BenchServing(opts, QUIET, new java.io.PrintStream(err, true, StandardCharsets.UTF_8)).run();

    assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("warmup");
    assertThat(exit).isZero();
    com.fasterxml.jackson.databind.JsonNode r = Json.parse(java.nio.file.Files.readString(out));
    assertThat(r.path("completed").asInt()).as("the main run measured the requests the router let through").isBetween(1, 8);
  }

  @Test
  void dynamoFrontendShedsTheSeededShareOfInferenceRequests() throws Exception {
    Map<String, String> env = Map.of("DYN_FILE_KV", tmp.resolve("kv").toString(), "SRT_EMULATOR_FAIL_RATIO", "0.3",
        "SRT_EMULATOR_SEED", "11", "SRT_RUN_ID", "r1");
    DynamoFrontend frontend = fleet.start(new DynamoFrontend(DynamoFrontend.Options.parse(List.of("--http-port", "0"), env, QUIET),
        env, QUIET));
    String base = "http://127.0.0.1:" + frontend.port();
    try (Socket busy = requestInFlight(frontend.port()); Socket busier = requestInFlight(frontend.port())) {
      // the first shed request shows the blocker is in flight; every request after it counts
      await().atMost(Duration.ofSeconds(5)).until(() -> shed(post(base + "/v1/chat/completions", chat(MODEL, "x", 4, false))));
      int n = 100;
      int shed = 0;
      for (int i = 0; i < n; i++) {
        HttpTestClient.Reply r = post(base + "/v1/chat/completions", chat(MODEL, "request " + i, 4, false));
        // not shed: no engine is registered, so the frontend answers as for an unknown model
        assertThat(r.status()).isIn(404, 503);
        shed += shed(r) ? 1 : 0;
      }
      double sigma = Math.sqrt(n * 0.3 * 0.7);
      assertThat((double) shed).isBetween(n * 0.3 - 4 * sigma, n * 0.3 + 4 * sigma);
      for (String path : List.of("/health", "/live", "/metrics", "/v1/models", "/v1/models/m/ready")) {
        assertThat(get(base + path).status()).as(path).isEqualTo(200);
      }
    }
  }
}
