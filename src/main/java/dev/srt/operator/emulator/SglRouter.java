package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The experimental Rust {@code sgl-router} (arm 1). It registers each {@code --worker-urls} entry
 * once that worker's {@code /server_info} answers, and {@code /readyz} turns 200 with the first
 * registration: the real router's weakness, which is why scripts gate on every worker's
 * {@code /health} and on {@code sgl_router_workers} before trusting it.
 */
public final class SglRouter implements EmulatedProcess {
  /** What {@code sgl-router --version} prints (clap's {@code <name> <version>}). */
  public static final String VERSION_LINE = "sgl-router 0.2.4+emulated";

  public record Options(List<String> workerUrls, int port, String modelId, String policy) {
    public static Options parse(List<String> argv, PrintStream err) {
      ArgParser.Parsed a = new ArgParser("sgl-router")
          .list("--worker-urls")
          .value("--host")
          .value("--port")
          .value("--model-id")
          .value("--tokenizer-path")
          .value("--policy")
          .parse(argv);
      a.reportIgnored("sgl-router", err);
      if (!a.has("--model-id")) {
        throw new IllegalArgumentException("the following required arguments were not provided: --model-id <MODEL_ID>");
      }
      if (a.list("--worker-urls").isEmpty()) {
        throw new IllegalArgumentException("exactly one discovery backend is required: --worker-urls (service discovery is not emulated)");
      }
      // --host and --tokenizer-path are read so they are not reported as ignored: the emulator binds
      // 127.0.0.1 and tokenizes by words whatever they say
      return new Options(a.list("--worker-urls"), a.getInt("--port", 30000), a.get("--model-id"), a.get("--policy", "round_robin"));
    }
  }

  /** Maps {@code --policy} to a rule; the emulator has no batching, so load-based ones share one. */
  static RoutingPolicy policy(String name) {
    return switch (name) {
      case "round_robin" -> RoutingPolicy.roundRobin();
      case "random" -> RoutingPolicy.random(42);
      case "cache_aware", "cache_aware_zmq" -> RoutingPolicy.TwoTierCacheAware.sglRouterDefaults();
      case "power_of_two", "load_based", "least_loaded" -> RoutingPolicy.leastLoaded();
      default -> throw new IllegalArgumentException("invalid value '" + name + "' for '--policy <POLICY>' "
          + "(emulated: round_robin, random, cache_aware, cache_aware_zmq, power_of_two, load_based)");
    };
  }

  private final Options opts;
  private final Dispatcher dispatcher;
  private final HttpClient client = Http.client();
  private final ChatProxy proxy = new ChatProxy(client);
  private final StaticWorkers workers;
  private final Map<String, LongAdder> requestsByRoute = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> decisions = new ConcurrentHashMap<>();
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private volatile HttpServer server;

  private final LoadShedder shedder;

  /** The router of {@code emulate sgl-router}, which takes its knobs from the process environment. */
  public SglRouter(Options opts) {
    this(opts, System.getenv());
  }

  /** {@code env} supplies {@code SRT_EMULATOR_FAIL_RATIO} and the seed ({@link LoadShedder}). */
  public SglRouter(Options opts, Map<String, String> env) {
    this.opts = opts;
    this.dispatcher = new Dispatcher(policy(opts.policy()));
    this.shedder = LoadShedder.fromEnv(env, "sgl-router:" + opts.port());
    // It hashes with the block size each worker's KV events announce; without events, no prefix view.
    this.workers = new StaticWorkers("sgl-router", client, (url, info) -> {
      JsonNode kv = info.path("kv_events");
      return new RoutedWorker(url, info.path("served_model_name").asText(opts.modelId()), kv.isObject() ? kv.path("block_size").asInt(0) : 0);
    });
  }

  @Override
  public void start() throws IOException {
    server = Http.server(opts.port(), "sgl-router-http");
    server.createContext("/", new Endpoints()
        .on("/healthz", ex -> count(ex, () -> Http.sendStatus(ex, 200)))
        .on("/readyz", ex -> count(ex, () -> Http.sendStatus(ex, readyWorkers().isEmpty() ? 503 : 200)))
        .on("/metrics", ex -> count(ex, () -> Http.send(ex, 200, PrometheusText.CONTENT_TYPE, metrics())))
        .on("/v1/models", ex -> count(ex, () -> models(ex)))
        .on("/v1/chat/completions", ex -> count(ex, () -> shedder.guard(this::chat).handle(ex)))
        .on("/flush_cache", ex -> count(ex, () -> flushCache(ex))));
    server.start();
    System.err.printf("sgl-router (emulated): listening on http://127.0.0.1:%d, policy %s, %d worker(s) to register%n",
        port(), opts.policy(), opts.workerUrls().size());
    workers.start(opts.workerUrls());
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Workers registered for {@code --model-id} and healthy at their last check. */
  List<RoutedWorker> readyWorkers() {
    return workers.healthyWorkers().stream().filter(w -> w.model().equals(opts.modelId())).toList();
  }

  private interface Action {
    void run() throws IOException;
  }

  private void count(HttpExchange ex, Action action) throws IOException {
    requestsByRoute.computeIfAbsent(ex.getRequestMethod() + " " + ex.getRequestURI().getPath(), k -> new LongAdder()).increment();
    action.run();
  }

  private String metrics() {
    PrometheusText p = new PrometheusText();
    requestsByRoute.forEach((k, v) -> {
      int sp = k.indexOf(' ');
      p.counter("sgl_router_requests_total", "Requests received by route.", v.sum(), "route", k.substring(sp + 1), "method", k.substring(0, sp));
    });
    List<RoutedWorker> registered = workers.registered();
    p.gauge("sgl_router_workers", "Registered workers by mode.", registered.size(), "mode", "plain");
    for (RoutedWorker w : registered) {
      p.gauge("sgl_router_worker_health", "1 when the worker passed its last health check.",
          workers.healthy(w) ? 1 : 0, "worker_url", w.url());
    }
    for (RoutedWorker w : registered) {
      p.gauge("sgl_router_worker_inflight_requests", "Requests in flight per worker.", w.activeRequests(), "worker_url", w.url());
    }
    for (RoutedWorker w : registered) {
      p.counter("sgl_router_worker_requests_total", "Requests routed per worker.", w.routedRequests(),
          "worker_url", w.url(), "model_id", w.model(), "mode", "plain", "outcome", "routed");
    }
    decisions.forEach((d, n) -> p.counter("sgl_router_cache_aware_decisions_total", "Cache-aware routing decisions.",
        n.sum(), "model_id", opts.modelId(), "decision", d));
    return p.toString();
  }

  private void models(HttpExchange ex) throws IOException {
    ObjectNode list = Json.object().put("object", "list");
    ArrayNode data = list.putArray("data");
    if (!readyWorkers().isEmpty()) {
      data.addObject().put("id", opts.modelId()).put("object", "model").put("owned_by", "sgl-router");
    }
    Http.sendJson(ex, 200, list);
  }

  private void chat(HttpExchange ex) throws IOException {
    if (!Http.require(ex, "POST")) {
      return;
    }
    byte[] body = Http.readBody(ex);
    JsonNode req = Json.parse(body);
    String model = req.path("model").asText(opts.modelId());
    if (!model.equals(opts.modelId())) {
      Http.sendJson(ex, 404, Http.error("model '" + model + "' is not served by this router", "NotFound", 404));
      return;
    }
    List<RoutedWorker> workers = readyWorkers();
    if (workers.isEmpty()) {
      Http.sendJson(ex, 503, Http.error("no available workers for model " + model, "ServiceUnavailable", 503));
      return;
    }
    try (Dispatcher.Routed r = dispatcher.route(workers, req.get("messages"))) {
      if (dispatcher.cacheAware()) {
        decisions.computeIfAbsent(r.decision(), k -> new LongAdder()).increment();
      }
      proxy.forward(ex, r.worker().url(), "/v1/chat/completions", body);
    }
  }

  /** Fans out to every registered worker, as the real router does. */
  private void flushCache(HttpExchange ex) throws IOException {
    if (!Http.require(ex, "POST")) {
      return;
    }
    int failed = workers.flushCache();
    Http.sendJson(ex, failed == 0 ? 200 : 500, Json.object().put("workers", workers.registered().size()).put("failed", failed));
  }

  @Override
  public int awaitExit() throws InterruptedException {
    return EmulatedProcess.exitCodeOf(exit);
  }

  @Override
  public void close() {
    workers.close();
    HttpServer s = server;
    if (s != null) {
      s.stop(0);
    }
    exit.complete(0);
  }
}
