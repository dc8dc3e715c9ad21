package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The Dynamo frontend ({@code python3 -m dynamo.frontend}, arms 2 and 3): OpenAI HTTP in front of
 * the engines its sidecars registered (etcd or the file store). Requests go straight to the
 * engine's HTTP port recorded at registration, chosen by {@code --router-mode} or, in KV mode, by
 * the {@code --router-policy-config} instance; with prefill and decode instances instead of
 * aggregated ones, through {@link PrefillDecodeRouting}.
 */
public final class DynamoFrontend implements EmulatedProcess {
  private static final Duration RESCAN = Duration.ofMillis(200);

  /** {@code discoveryBackend} is {@code --discovery-backend}, null when not given. */
  public record Options(int httpPort, String routerMode, Path policyConfig, String namespace,
      int kvBlockSize, int minInitialWorkers, double overlapWeight, String discoveryBackend) {

    public static Options parse(List<String> argv, Map<String, String> env, PrintStream err) {
      // Strict: refuses what ai-dynamo 1.6.1's dynamo.frontend.main.parse_args refuses (flags/dynamo.frontend.flags).
      ArgParser.Parsed a = ArgParser.strict("dynamo.frontend")
          .value("--http-host")
          .value("--http-port")
          .value("--router-mode")
          .value("--router-policy-config")
          .value("--namespace")
          .value("--kv-cache-block-size")
          .value("--router-min-initial-workers")
          .value("--router-prefill-load-scale", "--router-kv-overlap-score-weight", "--kv-overlap-score-weight")
          .value("--discovery-backend")
          .parse(argv, env);
      a.reportIgnored("dynamo.frontend", err);
      String policy = a.get("--router-policy-config", env.get("DYN_ROUTER_POLICY_CONFIG"));
      return new Options(
          a.getInt("--http-port", Integer.parseInt(env.getOrDefault("DYN_HTTP_PORT", "8000"))),
          a.get("--router-mode", env.getOrDefault("DYN_ROUTER_MODE", "round-robin")),
          policy == null ? null : Path.of(policy).toAbsolutePath(),
          a.get("--namespace", env.get("DYN_NAMESPACE")),
          a.getInt("--kv-cache-block-size", 0),
          a.getInt("--router-min-initial-workers", 0),
          a.getDouble("--router-prefill-load-scale", 1.0),
          a.get("--discovery-backend"));
    }
  }

  private final Options opts;
  private final Map<String, String> env;
  private final PrintStream err;
  private final ChatProxy proxy = new ChatProxy(Http.client());
  private final Map<Long, RoutedWorker> workers = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
  private final AtomicInteger inflight = new AtomicInteger();
  private final DoubleAdder predictedHits = new DoubleAdder();
  private final LongAdder kvDecisions = new LongAdder();
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private volatile NatsConnection nats;
  private final LoadShedder shedder;
  private volatile Dispatcher dispatcher;
  private volatile PrefillDecodeRouting disaggregated;
  private volatile DiscoveryBackend.InstanceSource discovery;
  private volatile HttpServer server;

  public DynamoFrontend(Options opts, Map<String, String> env, PrintStream err) {
    this.opts = opts;
    this.env = env;
    this.err = err;
    this.shedder = LoadShedder.fromEnv(env, "dynamo-frontend:" + opts.httpPort());
  }

  /** Fails like Dynamo when it is not installed or the policy YAML names a type the wheel lacks. */
  @Override
  public void start() throws Exception {
    DynamoInstall install = DynamoInstall.find(env, "dynamo.frontend");
    nats = NatsConnection.open(env, "dynamo.frontend", err);
    dispatcher = new Dispatcher(routingPolicy(install, "aggregated"));
    disaggregated = new PrefillDecodeRouting(routingPolicy(install, "prefill"), routingPolicy(install, "decode"));
    discovery = DiscoveryBackend.choose(env, opts.discoveryBackend(), err).watch(opts.namespace(), RESCAN, err);
    server = Http.server(opts.httpPort(), "dynamo-frontend-http");
    server.createContext("/", new Endpoints()
        .on("/health", this::health)
        .on("/live", ex -> Http.sendJson(ex, 200, Json.object().put("status", "live")))
        .on("/v1/models", this::models)
        .onPrefix("/v1/models/", this::modelReady)
        .on("/metrics", ex -> Http.send(ex, 200, PrometheusText.CONTENT_TYPE, metrics()))
        .on("/v1/chat/completions", shedder.guard(this::chat)));
    server.start();
    err.printf("dynamo.frontend (emulated): listening on %s, router mode %s%s%n", Http.baseUrl(server), opts.routerMode(),
        opts.policyConfig() == null ? "" : ", policy config " + opts.policyConfig());
  }

  /** The policy of one routing stage: {@code aggregated}, {@code prefill} or {@code decode}. */
  private RoutingPolicy routingPolicy(DynamoInstall install, String stage) throws IOException {
    if (opts.policyConfig() != null) {
      PolicyConfig config = PolicyConfig.load(opts.policyConfig(), env, install.policyTypes(), stage);
      if (!config.builtIn()) {
        if (!opts.routerMode().equals("kv")) {
          if (stage.equals("aggregated")) {
            err.println("dynamo.frontend (emulated): worker selection policies apply in --router-mode kv only; ignoring "
                + config.instanceName());
          }
        } else {
          if (stage.equals("aggregated")) {
            err.println("dynamo.frontend (emulated): worker selection " + config.instanceName() + " (" + config.type() + ")");
          }
          return config.policy();
        }
      }
    }
    return switch (opts.routerMode()) {
      case "round-robin", "direct" -> RoutingPolicy.roundRobin();
      case "random" -> RoutingPolicy.random(42);
      case "power-of-two", "least-loaded", "device-aware-weighted" -> RoutingPolicy.leastLoaded();
      case "kv" -> new RoutingPolicy.KvCost(opts.overlapWeight(), new RoutingPolicy.TieBreaker());
      default -> throw new IllegalArgumentException("argument --router-mode: invalid choice: '" + opts.routerMode() + "'");
    };
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private List<FileDiscovery.Instance> instances() {
    List<FileDiscovery.Instance> live = discovery.instances();
    Set<Long> ids = new HashSet<>();
    live.forEach(i -> ids.add(i.instanceId()));
    workers.keySet().retainAll(ids);
    return live;
  }

  private void health(HttpExchange ex) throws IOException {
    List<FileDiscovery.Instance> live = instances();
    ObjectNode body = Json.object();
    if (live.isEmpty()) {
      body.put("status", "unhealthy").put("message", "No endpoints available");
      body.putArray("instances");
    } else {
      body.put("status", "healthy");
      Set<String> endpoints = new LinkedHashSet<>();
      ArrayNode list = Json.array();
      for (FileDiscovery.Instance i : live) {
        endpoints.add("dyn://" + i.namespace() + "." + i.component() + "." + i.endpoint());
        list.add(i.healthEntry());
      }
      ArrayNode eps = body.putArray("endpoints");
      endpoints.forEach(eps::add);
      body.set("instances", list);
    }
    Http.sendJson(ex, 200, body);
  }

  private void models(HttpExchange ex) throws IOException {
    ObjectNode list = Json.object().put("object", "list");
    ArrayNode data = list.putArray("data");
    Set<String> seen = new LinkedHashSet<>();
    instances().forEach(i -> seen.add(i.model()));
    seen.forEach(m -> data.addObject().put("id", m).put("object", "model").put("created", 0).put("owned_by", "nvidia"));
    Http.sendJson(ex, 200, list);
  }

  /** {@code GET /v1/models/{model}/ready}; the model name arrives URL-encoded. */
  private void modelReady(HttpExchange ex) throws IOException {
    String rest = ex.getRequestURI().getRawPath().substring("/v1/models/".length());
    if (!rest.endsWith("/ready")) {
      Http.sendJson(ex, 404, Http.error("Not Found", "NotFound", 404));
      return;
    }
    String model = URLDecoder.decode(rest.substring(0, rest.length() - "/ready".length()), StandardCharsets.UTF_8);
    Map<String, List<FileDiscovery.Instance>> byNamespace = new java.util.TreeMap<>();
    for (FileDiscovery.Instance i : instances()) {
      if (i.model().equals(model)) {
        byNamespace.computeIfAbsent(i.namespace(), k -> new ArrayList<>()).add(i);
      }
    }
    int needed = Math.max(1, opts.minInitialWorkers());
    List<FileDiscovery.Instance> all = byNamespace.values().stream().flatMap(List::stream).toList();
    ObjectNode body = Json.object().put("ready", all.size() >= needed && Pools.of(all).servable()).put("model", model);
    ArrayNode nss = body.putArray("namespaces");
    byNamespace.forEach((ns, list) -> nss.addObject().put("namespace", ns)
        .put("ready", list.size() >= needed && Pools.of(list).servable()).put("instances", list.size()));
    Http.sendJson(ex, 200, body);
  }

  private String metrics() {
    PrometheusText p = new PrometheusText();
    requests.forEach((k, v) -> {
      String[] parts = k.split("\u0000");
      p.counter("dynamo_frontend_requests_total", "Requests handled by the frontend.", v.sum(),
          "model", parts[0], "endpoint", "chat_completions", "request_type", parts[1], "status", parts[2]);
    });
    p.gauge("dynamo_frontend_inflight_requests", "Requests in flight.", inflight.get());
    for (Map.Entry<Long, RoutedWorker> w : workers.entrySet()) {
      p.gauge("dynamo_frontend_worker_active_requests", "Requests in flight per worker.", w.getValue().activeRequests(),
          "worker_id", Long.toString(w.getKey()));
    }
    if (opts.routerMode().equals("kv")) {
      long n = kvDecisions.sum();
      p.counter("dynamo_router_requests_total", "Requests routed by the KV router.", n);
      p.gauge("dynamo_router_kv_hit_rate", "Mean predicted KV hit rate at routing time.", n == 0 ? 0 : predictedHits.sum() / n);
    }
    return p.toString();
  }

  private void chat(HttpExchange ex) throws IOException {
    if (!Http.require(ex, "POST")) {
      return;
    }
    byte[] body = Http.readBody(ex);
    JsonNode req = Json.parse(body);
    if (!req.isObject()) {
      throw new IllegalArgumentException("the request body must be a JSON object");
    }
    String model = req.path("model").asText();
    String type = req.path("stream").asBoolean(false) ? "stream" : "unary";
    List<FileDiscovery.Instance> serving = instances().stream().filter(i -> i.model().equals(model)).toList();
    if (serving.isEmpty()) {
      count(model, type, "error");
      Http.sendJson(ex, 404, Http.error("Model not found: " + model, "NotFound", 404));
      return;
    }
    Pools pools = Pools.of(serving);
    if (!pools.servable()) {
      count(model, type, "error");
      Http.sendJson(ex, 503, Http.error("no " + (pools.prefill().isEmpty() ? "prefill" : "decode")
          + " workers available for model " + model, "ServiceUnavailable", 503));
      return;
    }
    inflight.incrementAndGet();
    int status = 502;
    try {
      if (pools.aggregated().isEmpty()) {
        status = disaggregated.serve(ex, (ObjectNode) req, views(pools.prefill()), views(pools.decode()), proxy, this::noteKv);
      } else {
        try (Dispatcher.Routed r = dispatcher.route(views(pools.aggregated()), req.get("messages"))) {
          noteKv(r);
          status = proxy.forward(ex, r.worker().url(), "/v1/chat/completions", body);
        }
      }
    } finally {
      inflight.decrementAndGet();
      count(model, type, status == 200 ? "success" : "error");
    }
  }

  private List<RoutedWorker> views(List<FileDiscovery.Instance> instances) {
    List<RoutedWorker> views = new ArrayList<>();
    for (FileDiscovery.Instance i : instances) {
      int block = opts.kvBlockSize() > 0 ? opts.kvBlockSize() : i.blockSize();
      views.add(workers.computeIfAbsent(i.instanceId(), id -> new RoutedWorker(i.httpUrl(), i.model(), block, i.bootstrap())));
    }
    return views;
  }

  private void noteKv(Dispatcher.Routed r) {
    if (opts.routerMode().equals("kv")) {
      kvDecisions.increment();
      predictedHits.add(r.requestBlocks() == 0 ? 0 : (double) r.overlapBlocks() / r.requestBlocks());
    }
  }

  /**
   * A model's instances by role. Aggregated instances serve alone; without them the model needs a
   * prefill and a decode instance, as Dynamo's disaggregated serving does.
   */
  record Pools(List<FileDiscovery.Instance> aggregated, List<FileDiscovery.Instance> prefill,
      List<FileDiscovery.Instance> decode) {
    static Pools of(List<FileDiscovery.Instance> instances) {
      List<FileDiscovery.Instance> agg = new ArrayList<>();
      List<FileDiscovery.Instance> p = new ArrayList<>();
      List<FileDiscovery.Instance> d = new ArrayList<>();
      for (FileDiscovery.Instance i : instances) {
        (i.prefill() ? p : i.decode() ? d : agg).add(i);
      }
      return new Pools(agg, p, d);
    }

    boolean servable() {
      return !aggregated.isEmpty() || !prefill.isEmpty() && !decode.isEmpty();
    }
  }

  private void count(String model, String type, String status) {
    requests.computeIfAbsent(model + "\u0000" + type + "\u0000" + status, k -> new LongAdder()).increment();
  }

  @Override
  public int awaitExit() throws InterruptedException {
    return EmulatedProcess.exitCodeOf(exit);
  }

  @Override
  public void close() {
    HttpServer s = server;
    if (s != null) {
      s.stop(0);
    }
    DiscoveryBackend.InstanceSource d = discovery;
    if (d != null) {
      d.close();
    }
    NatsConnection n = nats;
    if (n != null) {
      n.close();
    }
    exit.complete(0);
  }
}
