package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The SGLang Model Gateway ({@code python3 -m sglang_router.launch_router}) over a static
 * {@code --worker-urls} pool: the HTTP surface srt-operator and the benchmarks use
 * ({@code /liveness}, {@code /health}, {@code /readiness}, {@code /workers}, {@code /get_loads},
 * {@code /v1/models}, {@code /v1/chat/completions}, {@code /v1/completions}, {@code /generate},
 * {@code /flush_cache}) and Prometheus text on a listener of its own ({@code --prometheus-port},
 * default 29000).
 *
 * <p>Its {@code cache_aware} policy keeps an approximate prefix tree of the text it routed and
 * reads no KV events. The emulator's routers predict the workers' caches from their own routing
 * the same way ({@link RoutedWorker}), here per word of the request whatever the workers publish,
 * and decide with the two-tier rule sgl-router's emulation uses, with the gateway's thresholds
 * (cache 0.3, balance 64 and 1.5 by default). A miss goes to the least loaded worker where the
 * real gateway picks the one with the smallest tree.
 */
public final class SglModelGateway implements EmulatedProcess {
  /** The {@code sglang-router} distribution the gateway is. */
  static final String VERSION = "0.3.2+emulated";

  static final String PROGRAM = "sglang_router.launch_router";
  static final List<String> POLICIES = List.of("random", "round_robin", "cache_aware", "power_of_two", "manual");
  /** One tree node per word: the emulated tokenizer's unit, standing in for the real tree's characters. */
  private static final int TREE_UNIT = 1;

  public record Options(List<String> workerUrls, int port, int prometheusPort, String policy,
      double cacheThreshold, int balanceAbs, double balanceRel) {
    public static Options parse(List<String> argv, PrintStream err) {
      // Strict: refuses what sglang-router 0.3.2's parse_router_args refuses (flags/sglang_router.launch_router.flags).
      ArgParser.Parsed a = ArgParser.strict(PROGRAM)
          .list("--worker-urls")
          .value("--host")
          .value("--port")
          .value("--policy")
          .value("--prometheus-port")
          .value("--prometheus-host")
          .value("--cache-threshold")
          .value("--balance-abs-threshold")
          .value("--balance-rel-threshold")
          .parse(argv);
      a.reportIgnored(PROGRAM, err);
      String policy = a.get("--policy", "cache_aware");
      if (!POLICIES.contains(policy)) {
        throw new IllegalArgumentException("argument --policy: invalid choice: '" + policy + "' (choose from "
            + String.join(", ", POLICIES.stream().map(p -> "'" + p + "'").toList()) + ")");
      }
      if (a.list("--worker-urls").isEmpty()) {
        throw new IllegalArgumentException("no --worker-urls (service discovery and PD mode are not emulated)");
      }
      // --host and --prometheus-host are read so that they are not reported as ignored: the
      // emulator binds its listen address whatever they say.
      return new Options(a.list("--worker-urls"), a.getInt("--port", 30000), a.getInt("--prometheus-port", 29000), policy,
          a.getDouble("--cache-threshold", 0.3), a.getInt("--balance-abs-threshold", 64), a.getDouble("--balance-rel-threshold", 1.5));
    }
  }

  /** The gateway's policies as the emulator runs them; the load-based ones share one rule, as in {@link SglRouter}. */
  static RoutingPolicy policy(Options o) {
    return switch (o.policy()) {
      case "cache_aware" -> new RoutingPolicy.TwoTierCacheAware(o.cacheThreshold(), o.balanceAbs(), o.balanceRel(),
          new RoutingPolicy.TieBreaker());
      case "manual" -> throw new IllegalArgumentException("--policy manual (routing by session key) is not emulated");
      default -> SglRouter.policy(o.policy());
    };
  }

  private final Options opts;
  private final Dispatcher dispatcher;
  private final HttpClient client = Http.client();
  private final ChatProxy proxy = new ChatProxy(client);
  private final StaticWorkers workers;
  private final LoadShedder shedder;
  private final Map<String, LongAdder> requestsByRoute = new ConcurrentHashMap<>();
  private final LongAdder cacheHits = new LongAdder();
  private final LongAdder cacheMisses = new LongAdder();
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private volatile HttpServer server;
  private volatile HttpServer metricsServer;

  /** {@code env} supplies {@code SRT_EMULATOR_FAIL_RATIO} and the seed ({@link LoadShedder}). */
  public SglModelGateway(Options opts, Map<String, String> env) {
    this.opts = opts;
    this.dispatcher = new Dispatcher(policy(opts));
    this.shedder = LoadShedder.fromEnv(env, "sgl-model-gateway:" + opts.port());
    this.workers = new StaticWorkers("sgl-model-gateway", client,
        (url, info) -> new RoutedWorker(url, info.path("served_model_name").asText(""), TREE_UNIT));
  }

  @Override
  public void start() throws IOException {
    server = Http.server(opts.port(), "sgl-model-gateway-http");
    server.createContext("/", new Endpoints()
        .on("/liveness", counted(ex -> Http.sendJson(ex, 200, Json.object().put("status", "alive"))))
        .on("/health", counted(ex -> Http.sendJson(ex, 200, Json.object().put("status", "alive"))))
        .on("/readiness", counted(this::readiness))
        .on("/workers", counted(this::listWorkers))
        .on("/get_loads", counted(this::loads))
        .on("/v1/models", counted(this::models))
        .on("/v1/chat/completions", counted(shedder.guard(ex -> route(ex, "/v1/chat/completions", body -> body.get("messages")))))
        .on("/v1/completions", counted(shedder.guard(ex -> route(ex, "/v1/completions", body -> userMessage(body.path("prompt"))))))
        .on("/generate", counted(shedder.guard(ex -> route(ex, "/generate", body -> userMessage(body.path("text"))))))
        .on("/flush_cache", counted(this::flushCache)));
    metricsServer = Http.server(opts.prometheusPort(), "sgl-model-gateway-metrics");
    metricsServer.createContext("/", new Endpoints()
        .on("/metrics", ex -> Http.send(ex, 200, PrometheusText.CONTENT_TYPE, metrics())));
    server.start();
    metricsServer.start();
    System.err.printf("sgl-model-gateway (emulated): listening on http://127.0.0.1:%d (metrics on %d), policy %s, %d worker(s)%n",
        port(), metricsServer.getAddress().getPort(), opts.policy(), opts.workerUrls().size());
    workers.start(opts.workerUrls());
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public int metricsPort() {
    return metricsServer.getAddress().getPort();
  }

  private HttpHandler counted(HttpHandler h) {
    return ex -> {
      requestsByRoute.computeIfAbsent(ex.getRequestURI().getPath(), k -> new LongAdder()).increment();
      h.handle(ex);
    };
  }

  /** 200 once one worker is healthy: the real gateway's weakness, hence the workers gate before it. */
  private void readiness(HttpExchange ex) throws IOException {
    int healthy = workers.healthyWorkers().size();
    ObjectNode body = Json.object().put("status", healthy > 0 ? "ready" : "not_ready")
        .put("healthy_workers", healthy).put("total_workers", workers.registered().size());
    if (healthy == 0) {
      body.put("reason", "No healthy workers available");
    }
    Http.sendJson(ex, healthy > 0 ? 200 : 503, body);
  }

  private void listWorkers(HttpExchange ex) throws IOException {
    ObjectNode body = Json.object();
    ArrayNode list = body.putArray("workers");
    for (RoutedWorker w : workers.registered()) {
      list.addObject().put("url", w.url()).put("model_id", w.model()).put("worker_type", "regular")
          .put("is_healthy", workers.healthy(w)).put("load", w.activeRequests()).put("connection_mode", "Http");
    }
    body.put("total", workers.registered().size());
    body.putObject("stats").put("prefill_count", 0).put("decode_count", 0).put("regular_count", workers.registered().size());
    Http.sendJson(ex, 200, body);
  }

  private void loads(HttpExchange ex) throws IOException {
    ObjectNode body = Json.object();
    ArrayNode list = body.putArray("workers");
    workers.registered().forEach(w -> list.addObject().put("worker", w.url()).put("load", w.activeRequests()));
    Http.sendJson(ex, 200, body);
  }

  private void models(HttpExchange ex) throws IOException {
    ObjectNode list = Json.object().put("object", "list");
    ArrayNode data = list.putArray("data");
    Set<String> models = new LinkedHashSet<>();
    workers.healthyWorkers().forEach(w -> models.add(w.model()));
    models.forEach(m -> data.addObject().put("id", m).put("object", "model").put("owned_by", "sglang"));
    Http.sendJson(ex, 200, list);
  }

  private interface Prompt {
    JsonNode messages(JsonNode body);
  }

  /** A completion's prompt or a generate request's text, as the one user message the emulated template renders. */
  private static JsonNode userMessage(JsonNode text) {
    ArrayNode messages = Json.array();
    messages.addObject().put("role", "user").put("content", text.isTextual() ? text.asText() : text.toString());
    return messages;
  }

  /** Chooses a healthy worker by the policy from the request's prompt and relays the request there unchanged. */
  private void route(HttpExchange ex, String path, Prompt prompt) throws IOException {
    if (!Http.require(ex, "POST")) {
      return;
    }
    byte[] body = Http.readBody(ex);
    List<RoutedWorker> healthy = workers.healthyWorkers();
    if (healthy.isEmpty()) {
      Http.sendJson(ex, 503, Http.error("No available workers", "ServiceUnavailable", 503));
      return;
    }
    try (Dispatcher.Routed r = dispatcher.route(healthy, prompt.messages(Json.parse(body)))) {
      if (dispatcher.cacheAware()) {
        ("cache_hit".equals(r.decision()) ? cacheHits : cacheMisses).increment();
      }
      proxy.forward(ex, r.worker().url(), path, body);
    }
  }

  private void flushCache(HttpExchange ex) throws IOException {
    if (!Http.require(ex, "POST")) {
      return;
    }
    int failed = workers.flushCache();
    Http.sendJson(ex, failed == 0 ? 200 : 500, Json.object().put("workers", workers.registered().size()).put("failed", failed));
  }

  /** The legacy gateway's metric names. */
  private String metrics() {
    PrometheusText p = new PrometheusText();
    requestsByRoute.forEach((route, n) -> p.counter("sgl_router_requests_total", "Requests received by route.", n.sum(), "route", route));
    p.gauge("sgl_router_active_workers", "Healthy workers.", workers.healthyWorkers().size());
    for (RoutedWorker w : workers.registered()) {
      p.gauge("sgl_router_running_requests", "Requests in flight per worker.", w.activeRequests(), "worker", w.url());
    }
    for (RoutedWorker w : workers.registered()) {
      p.counter("sgl_router_processed_requests_total", "Requests routed per worker.", w.routedRequests(), "worker", w.url());
    }
    if (dispatcher.cacheAware()) {
      p.counter("sgl_router_cache_hits_total", "Cache-aware decisions that followed a cached prefix.", cacheHits.sum());
      p.counter("sgl_router_cache_misses_total", "Cache-aware decisions that balanced load instead.", cacheMisses.sum());
    }
    return p.toString();
  }

  @Override
  public int awaitExit() throws InterruptedException {
    return EmulatedProcess.exitCodeOf(exit);
  }

  @Override
  public void close() {
    workers.close();
    for (HttpServer s : new HttpServer[] {server, metricsServer}) {
      if (s != null) {
        s.stop(0);
      }
    }
    exit.complete(0);
  }
}
