package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.QUIET;
import static dev.srt.operator.emulator.HttpTestClient.chat;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.metric;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Arms 2/3 in-process: two engines, their sidecars and the frontend sharing a file store. */
class DynamoIT {
  @TempDir Path tmp;
  private final EmulatedFleet fleet = new EmulatedFleet();
  private Map<String, String> env;

  @BeforeEach
  void setUp() {
    env = Map.of("DYN_DISCOVERY_BACKEND", "file", "DYN_FILE_KV", tmp.resolve("dynamo-discovery").toString());
  }

  @AfterEach
  void stop() {
    fleet.close();
  }

  private DynamoFrontend frontend(Map<String, String> e, String... extra) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("--http-port", "0", "--router-mode", "kv"));
    args.addAll(List.of(extra));
    return fleet.start(new DynamoFrontend(DynamoFrontend.Options.parse(args, e, QUIET), e, QUIET));
  }

  private DynamoSidecar sidecar(SglangWorker engine) throws Exception {
    await().atMost(Duration.ofSeconds(5)).until(() -> engine.grpcPort() > 0);
    return fleet.start(new DynamoSidecar(DynamoSidecar.Options.parse(
        List.of("--grpc-endpoint", "127.0.0.1:" + engine.grpcPort(), "--grpc-startup-deadline-secs", "60"), env, QUIET), env, QUIET));
  }

  private static int generateInstances(String base) {
    JsonNode health = get(base + "/health").json();
    int n = 0;
    for (JsonNode i : health.path("instances")) {
      n += i.path("endpoint").asText().equals("generate") && i.path("component").asText().equals("backend") ? 1 : 0;
    }
    return n;
  }

  @Test
  void healthCountsSidecarRegistrationsAndDropsTheOneWhoseEngineDied() throws Exception {
    DynamoFrontend frontend = frontend(env);
    String base = "http://127.0.0.1:" + frontend.port();
    JsonNode before = get(base + "/health").json();
    assertThat(before.path("status").asText()).isEqualTo("unhealthy");
    assertThat(before.path("message").asText()).isEqualTo("No endpoints available");
    assertThat(get(base + "/v1/models/Qwen%2FQwen3-32B-FP8/ready").json().path("ready").asBoolean()).isFalse();

    SglangWorker e0 = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--grpc-port", "0");
    SglangWorker e1 = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--grpc-port", "0");
    DynamoSidecar s0 = sidecar(e0);
    DynamoSidecar s1 = sidecar(e1);
    await().atMost(Duration.ofSeconds(5)).until(() -> generateInstances(base) == 2);
    JsonNode health = get(base + "/health").json();
    assertThat(health.path("status").asText()).isEqualTo("healthy");
    assertThat(health.path("endpoints").toString()).contains("dyn://dynamo.backend.generate");
    assertThat(health.path("instances").get(0).path("namespace").asText()).isEqualTo("dynamo");
    assertThat(get(base + "/v1/models/Qwen%2FQwen3-32B-FP8/ready").json().path("ready").asBoolean()).isTrue();
    assertThat(get(base + "/v1/models").json().path("data").get(0).path("id").asText()).isEqualTo(MODEL);

    HttpTestClient.Reply canary = post(base + "/v1/chat/completions", chat(MODEL, "Reply with one word: ready", 16, false));
    assertThat(canary.json().path("choices").get(0).path("message").path("content").asText()).isEqualTo("ready");

    CompletableFuture<Integer> s0Exit = CompletableFuture.supplyAsync(() -> {
      try {
        return s0.awaitExit();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    e0.close();
    assertThat(s0Exit.get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
    await().atMost(Duration.ofSeconds(5)).until(() -> generateInstances(base) == 1);
    assertThat(s1.isRegistered()).isTrue();
    assertThat(post(base + "/v1/chat/completions", chat(MODEL, "still served", 4, true)).body()).endsWith("data: [DONE]\n\n");
    assertThat(metric(get(base + "/metrics").body(), "dynamo_frontend_requests_total{model=\"" + MODEL
        + "\",endpoint=\"chat_completions\",request_type=\"unary\",status=\"success\"}")).isEqualTo(1.0);

    s1.close();
    assertThat(s1.awaitExit()).isZero();
    await().atMost(Duration.ofSeconds(5)).until(() -> generateInstances(base) == 0);
    try (var files = Files.list(tmp.resolve("dynamo-discovery/dynamo/instances"))) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void thePolicyConfigRoutesAPrefixGroupToOneEngine() throws Exception {
    Path yaml = tmp.resolve("worker-selection.yaml");
    Files.writeString(yaml, FakeCheckouts.SGL_ROUTER_CACHE_AWARE_YAML.replace("type: sgl-router-cache-aware", "type: dynamo-two-tier-cost-fn"));
    DynamoFrontend frontend = frontend(env, "--router-policy-config", yaml.toString());
    String base = "http://127.0.0.1:" + frontend.port();
    SglangWorker e0 = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--grpc-port", "0");
    SglangWorker e1 = fleet.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), "--grpc-port", "0");
    sidecar(e0);
    sidecar(e1);
    await().atMost(Duration.ofSeconds(5)).until(() -> generateInstances(base) == 2);
    String system = "policy ".repeat(160);
    for (int i = 0; i < 5; i++) {
      assertThat(post(base + "/v1/chat/completions", chat(MODEL, system + "q" + i, 4, false)).status()).isEqualTo(200);
    }
    double a = metric(get(EmulatedFleet.url(e0) + "/metrics").body(), "sglang:num_requests_total{model_name=\"" + MODEL + "\"}");
    double b = metric(get(EmulatedFleet.url(e1) + "/metrics").body(), "sglang:num_requests_total{model_name=\"" + MODEL + "\"}");
    assertThat(List.of(a, b)).containsExactlyInAnyOrder(5.0, 0.0);
    assertThat(metric(get(base + "/metrics").body(), "dynamo_router_kv_hit_rate")).isGreaterThan(0.5);
  }

  @Test
  void startUpFailsWhenDynamoIsNotInstalledOrThePolicyTypeIsNotLinked() throws Exception {
    Map<String, String> withState = new HashMap<>(env);
    withState.put(EmulatorState.ENV, tmp.resolve("state").toString());
    DynamoFrontend.Options opts = DynamoFrontend.Options.parse(List.of("--http-port", "0"), withState, QUIET);
    assertThatThrownBy(() -> new DynamoFrontend(opts, withState, QUIET).start())
        .hasMessageContaining("ModuleNotFoundError: No module named 'dynamo'");

    new EmulatorState(tmp.resolve("state")).updatePackages(p -> {
      p.putObject(DynamoInstall.PYTHON_PACKAGE).put("version", "1.2.0");
      var runtime = p.putObject(DynamoInstall.RUNTIME).put("version", "1.2.0");
      DynamoInstall.BUILTIN_POLICY_TYPES.forEach(runtime.putArray("policy_types")::add);
    });
    Path yaml = tmp.resolve("worker-selection.yaml");
    Files.writeString(yaml, FakeCheckouts.SGL_ROUTER_CACHE_AWARE_YAML);
    DynamoFrontend.Options arm3 = DynamoFrontend.Options.parse(
        List.of("--http-port", "0", "--router-mode", "kv", "--router-policy-config", yaml.toString()), withState, QUIET);
    DynamoFrontend f = new DynamoFrontend(arm3, withState, QUIET);
    try {
      assertThatThrownBy(f::start).hasMessage("unknown worker selection policy type 'sgl-router-cache-aware'; linked types: "
          + DynamoInstall.BUILTIN_POLICY_TYPES);
    } finally {
      f.close();
    }
  }
}
