package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.url;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.metric;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.plan.Gates;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real SGLang Model Gateway (sglang-router 0.3.2 from the pinned environment) started with the
 * command line the renderer emits for examples/gateway-vs-dynamo.yaml's gateway arm, over two
 * emulated engines: it registers them, passes the script's gates, relays every inference path, and
 * routes as its policy says — which the engines' own counters show.
 */
class RealModelGatewayIT {
  private static final String ARM = "sgl-model-gateway";
  /** Counted at prefill, before the reply leaves the engine (its request counter moves only after). */
  private static final String SERIES_PROMPT = "sglang:prompt_tokens_total{model_name=\"" + MODEL + "\"}";
  private static final String SERIES_CACHED = "sglang:cached_tokens_total{cache_source=\"device\",model_name=\"" + MODEL + "\"}";
  private static final int SESSIONS = 3;
  private static final int TURNS = 4;
  /** Words of each session's shared prefix: six full 16-token pages with the role marker. */
  private static final int PREFIX_WORDS = 95;

  private final EmulatedFleet fleet = new EmulatedFleet();
  private final RunPlan plan = Examples.plan(Examples.GATEWAY, ARM, Mode.DIRECT);
  private String python;
  private ModelGatewayProcess gateway;

  @BeforeEach
  void requireEnvironment() {
    python = RealProgramsEnv.bin("python");
  }

  @AfterEach
  void stop() {
    if (gateway != null) {
      gateway.close();
    }
    fleet.close();
  }

  /** Two ready engines, as after the script's workers-health gate (every worker's /health is 200). */
  private List<SglangWorker> engines(EmulatedFleet in) throws Exception {
    List<SglangWorker> engines = List.of(in.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0")),
        in.worker(Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0")));
    Gate workersHealth = gate(Gates.WORKERS_HEALTH);
    String healthPath = URI.create(workersHealth.checks().get(0).probe().url()).getPath();
    await().atMost(Duration.ofSeconds(10)).until(() -> engines.stream().allMatch(e -> get(url(e) + healthPath).status() == 200));
    return engines;
  }

  private Gate gate(String name) {
    return plan.gates().stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
  }

  /**
   * The rendered router argv with what a test must change: the environment's python, our engines
   * as --worker-urls, free ports instead of 8000/29000, and the policy under test.
   */
  private List<String> routerArgv(List<SglangWorker> engines, int port, int metricsPort, String policy) {
    List<String> rendered = plan.processes(Role.ROUTER).get(0).argv();
    assertThat(rendered).startsWith("python3", "-m", "sglang_router.launch_router", "--worker-urls");
    List<String> argv = new ArrayList<>(List.of(python, "-m", "sglang_router.launch_router", "--worker-urls"));
    engines.forEach(e -> argv.add(url(e)));
    int i = 4;
    while (!rendered.get(i).startsWith("--")) {
      i++;
    }
    Map<String, String> replaced = Map.of("--port", String.valueOf(port), "--prometheus-port", String.valueOf(metricsPort),
        "--policy", policy);
    for (; i < rendered.size(); i++) {
      String arg = rendered.get(i);
      argv.add(arg);
      if (replaced.containsKey(arg)) {
        argv.add(replaced.get(arg));
        i++;
      }
    }
    assertThat(argv).contains("--policy").contains("--prometheus-port");
    return argv;
  }

  /** Starts the real gateway and waits for the script's router-ready gate, then passes its canary. */
  private String startGateway(List<SglangWorker> engines, String policy) throws Exception {
    int port = ModelGatewayProcess.freePort();
    int metricsPort = ModelGatewayProcess.freePort();
    gateway = ModelGatewayProcess.start(routerArgv(engines, port, metricsPort, policy));
    String base = "http://127.0.0.1:" + port;
    String readyPath = URI.create(gate(Gates.ROUTER_READY).checks().get(0).probe().url()).getPath();
    assertThat(readyPath).isEqualTo("/readiness");
    await().atMost(Duration.ofSeconds(60)).until(() -> {
      assertThat(gateway.isAlive()).as("the gateway exited:\n%s", gateway.logTail()).isTrue();
      return get(base + readyPath).status() == 200;
    });
    // /readiness wants one healthy worker; the other's registration may finish a moment later
    await().atMost(Duration.ofSeconds(30)).until(() -> get(base + "/workers").json().path("total").asInt() == 2);
    JsonNode workers = get(base + "/workers").json();
    assertThat(workers.path("workers")).allSatisfy(w -> {
      assertThat(w.path("model_id").asText()).isEqualTo(MODEL);
      assertThat(w.path("is_healthy").asBoolean()).isTrue();
    });
    // the canary as srt-lib.sh's `srt_probe chat` sends it
    var canary = Json.object().put("model", MODEL).put("temperature", 0).put("max_tokens", 64);
    canary.putArray("messages").addObject().put("role", "user").put("content", "Reply with one word: ready");
    HttpTestClient.Reply reply = post(base + "/v1/chat/completions", Json.write(canary));
    assertThat(reply.status()).as(gateway.logTail()).isEqualTo(200);
    assertThat(reply.json().path("choices").get(0).path("message").path("content").asText()).isEqualTo("ready");
    assertThat(get("http://127.0.0.1:" + metricsPort + "/metrics").body()).contains("smg_worker_pool_size");
    return base;
  }

  private static String chat(String text, boolean stream) {
    var body = Json.object().put("model", MODEL).put("max_tokens", 4).put("ignore_eos", true).put("stream", stream);
    body.putArray("messages").addObject().put("role", "user").put("content", text);
    if (stream) {
      body.putObject("stream_options").put("include_usage", true);
    }
    return Json.write(body);
  }

  /** The usage block of a buffered reply, or of a stream's usage chunk. */
  private static JsonNode usage(HttpTestClient.Reply reply) {
    if (!reply.body().startsWith("data: ")) {
      return reply.json().path("usage");
    }
    List<String> data = reply.body().lines().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
    assertThat(data).last().isEqualTo("[DONE]");
    return data.stream().filter(d -> !d.equals("[DONE]")).map(Json::parse).filter(d -> d.path("usage").isObject())
        .reduce((a, b) -> b).orElseThrow().path("usage");
  }

  /** Each session's prefix starts differently, so the gateway's text tree tells the sessions apart. */
  private static String prompt(int session, int turn) {
    StringBuilder sb = new StringBuilder();
    for (int w = 0; w < PREFIX_WORDS; w++) {
      sb.append("s").append(session).append("w").append(w).append(' ');
    }
    return sb.append("now answer question ").append(turn).append(" of session ").append(session).toString();
  }

  /** What one policy did with the prefix-sharing stream, from the engines' counters. */
  private record Outcome(Map<Integer, List<Integer>> workerOfSessionTurns, int[] requestsPerWorker, double cachedTokens,
      long usageCachedTokens) {}

  /**
   * Sessions take turns (turn 0 of every session, then turn 1, ...), alternating buffered and
   * streamed requests, one at a time: which engine served each request is the one whose
   * prompt-token counter moved.
   */
  private Outcome runSessions(String base, List<SglangWorker> engines) {
    double[] cachedBefore = engines.stream().mapToDouble(e -> metric(get(url(e) + "/metrics").body(), SERIES_CACHED)).toArray();
    Map<Integer, List<Integer>> served = new LinkedHashMap<>();
    int[] perWorker = new int[engines.size()];
    long usageCached = 0;
    for (int turn = 0; turn < TURNS; turn++) {
      for (int session = 0; session < SESSIONS; session++) {
        double[] before = promptTokenCounts(engines);
        HttpTestClient.Reply reply = post(base + "/v1/chat/completions", chat(prompt(session, turn), (turn + session) % 2 == 1));
        assertThat(reply.status()).as(gateway.logTail()).isEqualTo(200);
        usageCached += usage(reply).path("prompt_tokens_details").path("cached_tokens").asLong();
        double[] after = promptTokenCounts(engines);
        List<Integer> moved = new ArrayList<>();
        for (int w = 0; w < engines.size(); w++) {
          if (after[w] > before[w]) {
            moved.add(w);
          }
        }
        assertThat(moved).as("exactly one engine served the request").hasSize(1);
        perWorker[moved.get(0)]++;
        served.computeIfAbsent(session, s -> new ArrayList<>()).add(moved.get(0));
      }
    }
    double cached = 0;
    for (int w = 0; w < engines.size(); w++) {
      cached += metric(get(url(engines.get(w)) + "/metrics").body(), SERIES_CACHED) - cachedBefore[w];
    }
    return new Outcome(served, perWorker, cached, usageCached);
  }

  private static double[] promptTokenCounts(List<SglangWorker> engines) {
    return engines.stream().mapToDouble(e -> metric(get(url(e) + "/metrics").body(), SERIES_PROMPT)).toArray();
  }

  /** Fresh engines (empty caches) and a fresh gateway for each policy. */
  private Outcome underPolicy(String policy) throws Exception {
    try (EmulatedFleet own = new EmulatedFleet()) {
      List<SglangWorker> engines = engines(own);
      Outcome o = runSessions(startGateway(engines, policy), engines);
      // the cached tokens the engines counted are those their replies reported
      assertThat(o.usageCachedTokens()).isEqualTo((long) o.cachedTokens());
      return o;
    } finally {
      if (gateway != null) {
        gateway.close();
        gateway = null;
      }
    }
  }

  @Test
  void cacheAwareKeepsEachSessionOnOneEngineAndHitsMoreCacheThanRoundRobin() throws Exception {
    Outcome roundRobin = underPolicy("round_robin");
    Outcome cacheAware = underPolicy("cache_aware");

    // round robin alternates: an even split, and every session (an odd number of them take turns) meets both engines
    assertThat(roundRobin.requestsPerWorker()).containsExactly(SESSIONS * TURNS / 2, SESSIONS * TURNS / 2);
    assertThat(roundRobin.workerOfSessionTurns().values()).allSatisfy(engines -> assertThat(engines).containsOnly(0, 1));
    // cache-aware sends every turn of a session to the engine that holds its prefix
    assertThat(cacheAware.workerOfSessionTurns().values()).allSatisfy(engines -> assertThat(engines).containsOnly(engines.get(0)));
    // so the engines hit their caches on more prompt tokens: one miss per session instead of one per session and engine
    assertThat(cacheAware.cachedTokens()).isGreaterThan(roundRobin.cachedTokens());
    assertThat(roundRobin.cachedTokens()).isPositive();
  }

  @Test
  void itRelaysGenerateAndCompletionsBufferedAndStreamed() throws Exception {
    String base = startGateway(engines(fleet), "round_robin");

    var generate = Json.object().put("text", "tell me about prefix caches").put("stream", false);
    generate.putObject("sampling_params").put("max_new_tokens", 3).put("ignore_eos", true);
    JsonNode native1 = post(base + "/generate", Json.write(generate)).json();
    assertThat(native1.path("meta_info").path("completion_tokens").asInt()).as(gateway.logTail()).isEqualTo(3);
    generate.put("stream", true);
    HttpTestClient.Reply streamed = post(base + "/generate", Json.write(generate));
    assertThat(streamed.status()).isEqualTo(200);
    assertThat(streamed.body()).contains("\"finish_reason\":{\"type\":\"length\",\"length\":3}").endsWith("data: [DONE]\n\n");

    var completion = Json.object().put("model", MODEL).put("prompt", "tell me about prefix caches").put("max_tokens", 3)
        .put("ignore_eos", true);
    JsonNode text = post(base + "/v1/completions", Json.write(completion)).json();
    assertThat(text.path("object").asText()).isEqualTo("text_completion");
    assertThat(text.path("usage").path("completion_tokens").asInt()).isEqualTo(3);
    completion.put("stream", true).putObject("stream_options").put("include_usage", true);
    HttpTestClient.Reply textStream = post(base + "/v1/completions", Json.write(completion));
    assertThat(usage(textStream).path("completion_tokens").asInt()).isEqualTo(3);

    // its load fan-out reads the engines' /get_load (-1 would mean a worker did not answer)
    assertThat(get(base + "/get_loads").json().path("workers")).hasSize(2)
        .allSatisfy(w -> assertThat(w.path("load").asInt()).isGreaterThanOrEqualTo(0));
  }
}
