package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * An SGLang engine ({@code python3 -m sglang.launch_server}) without a GPU: the HTTP surface the
 * routers, gates and benchmarks use, a paged prefix cache so that requests sharing a prefix on one
 * worker are faster, and the native gRPC port the Dynamo sidecar attaches to.
 *
 * <p>Timing: requests wait for one of {@code --max-running-requests} slots, then prefill one at a
 * time on the {@link PrefillLane} (a GPU prefills one batch at a time, which is what makes cache
 * misses queue up), then
 * decode concurrently, each as {@link LatencyModel} says, with this process's seeded
 * {@link RunNoise}.
 */
public final class SglangWorker implements EmulatedProcess {
  static final String VERSION = "0.5.18+emulated";
  private static final int DEFAULT_MAX_TOKENS = 64;
  /** KV-cache tokens per GPU of --tp-size, when --max-total-tokens does not say: what the memory left by the weights holds. */
  static final int KV_TOKENS_PER_GPU = 65_536;

  /** The launch flags the emulator uses, plus its own settings from the environment. */
  public record Options(
      String modelPath,
      String servedModelName,
      String host,
      int port,
      Integer grpcPort,
      int pageSize,
      int tpSize,
      boolean enableMetrics,
      JsonNode kvEventsConfig,
      int maxRunningRequests,
      int contextLength,
      int streamInterval,
      int maxChunks,
      int cacheTokens,
      long startupDelayMs,
      boolean failHealth,
      LatencyModel latency,
      String cudaVisibleDevices,
      int nnodes,
      int nodeRank,
      String distInitAddr,
      Disaggregation.Options disaggregation,
      ObjectNode otherArgs) {

    public static Options parse(List<String> argv, Map<String, String> env, PrintStream err) {
      ArgParser.Parsed a = new ArgParser("sglang.launch_server")
          .value("--model-path", "--model")
          .value("--served-model-name")
          .value("--host")
          .value("--port")
          .value("--grpc-port")
          .value("--page-size")
          .value("--tp-size", "--tensor-parallel-size", "--tp")
          .flag("--enable-metrics")
          .value("--kv-events-config")
          .value("--max-running-requests")
          .value("--context-length")
          .value("--stream-interval")
          .value("--max-total-tokens")
          .value("--nnodes")
          .value("--node-rank")
          .value("--dist-init-addr", "--nccl-init-addr")
          .value("--disaggregation-mode")
          .value("--disaggregation-bootstrap-port")
          .value("--disaggregation-transfer-backend")
          .value("--disaggregation-ib-device")
          .flag("--disaggregation-decode-enable-radix-cache")
          .parse(argv);
      a.reportIgnored("sglang.launch_server", err);
      String model = a.get("--model-path");
      if (model == null) {
        throw new IllegalArgumentException("the following arguments are required: --model-path");
      }
      String stripped = model.replaceAll("/+$", "");
      Path base = Path.of(stripped).getFileName();
      String served = a.get("--served-model-name", base == null ? stripped : base.toString());
      String kv = a.get("--kv-events-config");
      int port = a.getInt("--port", 30000);
      return new Options(
          model,
          served,
          a.get("--host", "127.0.0.1"),
          port,
          a.has("--grpc-port") ? a.getInt("--grpc-port", 0) : null,
          a.getInt("--page-size", 16),
          a.getInt("--tp-size", 1),
          a.flag("--enable-metrics"),
          kv == null ? null : Json.parse(kv),
          a.getInt("--max-running-requests", 128),
          a.getInt("--context-length", 40960),
          a.getInt("--stream-interval", 1),
          envInt(env, "SRT_EMULATOR_MAX_CHUNKS", 16),
          a.getInt("--max-total-tokens", KV_TOKENS_PER_GPU * a.getInt("--tp-size", 1)),
          envInt(env, "SRT_EMULATOR_STARTUP_DELAY_MS_PORT_" + port, envInt(env, "SRT_EMULATOR_STARTUP_DELAY_MS", 300)),
          "1".equals(env.get("SRT_EMULATOR_FAIL_HEALTH")),
          LatencyModel.fromEnv(env, "sglang:" + port),
          env.get("CUDA_VISIBLE_DEVICES"),
          a.getInt("--nnodes", 1),
          a.getInt("--node-rank", 0),
          a.get("--dist-init-addr"),
          new Disaggregation.Options(
              disaggregationMode(a.get("--disaggregation-mode", Disaggregation.AGGREGATED)),
              a.getInt("--disaggregation-bootstrap-port", 8998),
              a.get("--disaggregation-transfer-backend", "mooncake"),
              a.get("--disaggregation-ib-device"),
              a.flag("--disaggregation-decode-enable-radix-cache")),
          ServerArgs.others(a.ignoredOptions()));
    }

    /** Rank 1.. of a multi-node engine: no HTTP server, it serves through the leader. */
    boolean follower() {
      return nnodes > 1 && nodeRank > 0;
    }

    private static int envInt(Map<String, String> env, String name, int fallback) {
      String v = env.get(name);
      return v == null || v.isBlank() ? fallback : Integer.parseInt(v.trim());
    }
  }

  /** argparse's choices for {@code --disaggregation-mode}; null (not given) stays null. */
  static String disaggregationMode(String mode) {
    if (mode == null || mode.equals(Disaggregation.AGGREGATED) || mode.equals("prefill") || mode.equals("decode")) {
      return mode;
    }
    throw new IllegalArgumentException(
        "argument --disaggregation-mode: invalid choice: '" + mode + "' (choose from 'null', 'prefill', 'decode')");
  }

  private final Options opts;
  private final Disaggregation disaggregation;
  private final EngineKvCache cache;
  private final Semaphore runningSlots;
  private final PrefillLane prefillLane = new PrefillLane();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger queued = new AtomicInteger();
  /** Requests past prefill, streaming their reply: the decode batch. */
  private final AtomicInteger decoding = new AtomicInteger();
  private final LongAdder promptTokens = new LongAdder();
  private final LongAdder cachedTokens = new LongAdder();
  private final LongAdder generationTokens = new LongAdder();
  private final LongAdder requests = new LongAdder();
  /** Prompt tokens of the requests admitted and not yet finished: the load {@code /get_load} reports. */
  private final AtomicLong tokensInFlight = new AtomicLong();
  private final TextCompletions texts = new TextCompletions(new TextEngine());
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "worker-startup");
    t.setDaemon(true);
    return t;
  });
  private final long createdEpoch = System.currentTimeMillis() / 1000;
  /** {@code random_seed}: given, or drawn once at start-up as SGLang draws it. */
  private final JsonNode randomSeed;
  private volatile boolean ready;
  private volatile HttpServer server;
  private volatile EngineGrpcService rpc;
  private volatile DistributedGroup group;
  /** How long ranks wait for each other, as torch.distributed's rendezvous timeout. */
  static final Duration JOIN_TIMEOUT = Duration.ofMinutes(10);

  public SglangWorker(Options opts) {
    this.opts = opts;
    this.disaggregation = new Disaggregation(opts.disaggregation());
    // a follower rank publishes no KV events: its cache is the leader's (attn-TP rank 0 publishes in SGLang)
    this.cache = new EngineKvCache(Math.max(1, opts.cacheTokens() / opts.pageSize()), opts.pageSize(),
        opts.follower() ? null : KvEventPublisher.open(opts.kvEventsConfig(), System.err));
    this.runningSlots = new Semaphore(Math.max(1, opts.maxRunningRequests()), true);
    this.randomSeed = ServerArgs.resolve(Json.object(), opts.otherArgs()).get("random_seed");
  }

  @Override
  public void start() throws IOException {
    if (opts.nnodes() > 1) {
      if (opts.distInitAddr() == null) {
        throw new IllegalArgumentException("--nnodes " + opts.nnodes() + " needs --dist-init-addr");
      }
      group = DistributedGroup.start(opts.nnodes(), opts.nodeRank(), opts.distInitAddr(), JOIN_TIMEOUT);
      group.broken().thenAccept(reason -> {
        System.err.println("sglang.launch_server (emulated): distributed group broken: " + reason);
        exit.complete(1);
      });
    }
    // what a real engine's (or rank's) device list would show; tests read it to check how GPUs were split
    System.err.printf("sglang.launch_server (emulated): CUDA_VISIBLE_DEVICES=%s%n",
        opts.cudaVisibleDevices() == null ? "(unset)" : opts.cudaVisibleDevices());
    if (opts.follower()) {
      System.err.printf("sglang.launch_server (emulated): rank %d of %d, serving through the leader at %s%n",
          opts.nodeRank(), opts.nnodes(), opts.distInitAddr());
      return;
    }
    disaggregation.start();
    server = Http.server(opts.port(), "sglang-http");
    server.createContext("/", new Endpoints()
        .on("/health", this::health)
        .on("/health_generate", this::health)
        .on("/server_info", this::serverInfo)
        .on("/get_server_info", this::serverInfo)
        .on("/model_info", this::modelInfo)
        .on("/get_model_info", this::modelInfo)
        .on("/v1/models", this::models)
        .on("/v1/chat/completions", this::chat)
        .on("/generate", texts::generate)
        .on("/v1/completions", texts::completions)
        .on("/get_load", this::load)
        .on("/flush_cache", this::flushCache)
        .on("/metrics", this::metrics));
    server.start();
    System.err.printf("sglang.launch_server (emulated): serving %s on %s%s%n", opts.servedModelName(), Http.baseUrl(server),
        opts.disaggregation().aggregated() ? ""
            : " (disaggregation mode " + opts.disaggregation().mode() + ", bootstrap port " + disaggregation.bootstrapPort() + ")");
    if (!opts.failHealth()) {
      // A multi-node leader serves once every rank joined, as the real one finishes loading then.
      CompletableFuture<Void> ranks = group == null ? CompletableFuture.completedFuture(null) : group.joined();
      timer.schedule(() -> ranks.thenRun(this::becomeReady), opts.startupDelayMs(), TimeUnit.MILLISECONDS);
    }
  }

  private void becomeReady() {
    try {
      if (opts.grpcPort() != null) {
        rpc = new EngineGrpcService(opts.grpcPort(), new TokenizedEngine());
        System.err.printf("sglang.launch_server (emulated): native gRPC on 127.0.0.1:%d (bound at epoch ms %d)%n", rpc.port(),
            System.currentTimeMillis());
      }
      ready = true;
      System.err.println("sglang.launch_server (emulated): The server is fired up and ready to roll!");
    } catch (IOException e) {
      System.err.println("sglang.launch_server (emulated): cannot bind --grpc-port " + opts.grpcPort() + ": " + e.getMessage());
      exit.complete(1);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The bound native port, or -1 before the engine is ready or without {@code --grpc-port}. */
  public int grpcPort() {
    EngineGrpcService r = rpc;
    return r == null ? -1 : r.port();
  }

  public boolean isReady() {
    return ready;
  }

  @Override
  public int awaitExit() throws InterruptedException {
    return EmulatedProcess.exitCodeOf(exit);
  }

  @Override
  public void close() {
    ready = false;
    timer.shutdownNow();
    EngineGrpcService r = rpc;
    if (r != null) {
      r.close();
    }
    DistributedGroup g = group;
    if (g != null) {
      g.close();
    }
    disaggregation.close();
    cache.close();
    HttpServer s = server;
    if (s != null) {
      s.stop(0);
    }
    exit.complete(0);
  }

  /**
   * The descriptor SGLang publishes in {@code /server_info} for the routers: where the ZMQ
   * publisher of each DP rank listens and which block size its events use; null without a
   * publisher, which silently disables cache-aware routing for the worker, as in the real router.
   */
  static JsonNode kvEventsDescriptor(JsonNode config, int pageSize) {
    if (config == null || !"zmq".equals(config.path("publisher").asText("null"))) {
      return NullNode.getInstance();
    }
    String endpoint = config.path("endpoint").asText("tcp://*:5557");
    String hostPort = endpoint.substring(endpoint.indexOf("://") + 3);
    int colon = hostPort.lastIndexOf(':');
    ObjectNode d = Json.object();
    d.put("publisher", "zmq");
    d.put("endpoint_host", colon < 0 ? hostPort : hostPort.substring(0, colon));
    d.put("endpoint_port_base", colon < 0 ? 5557 : Integer.parseInt(hostPort.substring(colon + 1)));
    d.put("topic", config.path("topic").asText(""));
    d.put("block_size", pageSize);
    d.put("dp_size", 1);
    return d;
  }

  private boolean answerUnlessReady(HttpExchange ex) throws IOException {
    if (ready) {
      return false;
    }
    Http.sendJson(ex, 503, Http.error("The server is starting up", "ServiceUnavailable", 503));
    return true;
  }

  private void health(HttpExchange ex) throws IOException {
    if (ready) {
      Http.sendStatus(ex, 200);
    } else {
      Http.sendStatus(ex, 503);
    }
  }

  private void serverInfo(HttpExchange ex) throws IOException {
    if (answerUnlessReady(ex)) {
      return;
    }
    Http.sendJson(ex, 200, serverInfo());
  }

  /** SGLang's server info: {@code /server_info}, and the gRPC {@code GetServerInfo}. */
  private ObjectNode serverInfo() {
    ObjectNode info = Json.object();
    info.put("model_path", opts.modelPath());
    info.put("tokenizer_path", opts.modelPath());
    info.set("random_seed", randomSeed);
    info.put("served_model_name", opts.servedModelName());
    info.put("host", opts.host());
    info.put("port", server == null ? opts.port() : port()); // what it bound: --port 0 (tests) asks for any
    if (opts.grpcPort() == null) {
      info.putNull("grpc_port");
    } else {
      info.put("grpc_port", opts.grpcPort());
    }
    info.put("page_size", opts.pageSize());
    info.put("tp_size", opts.tpSize());
    info.put("dp_size", 1);
    info.put("enable_metrics", opts.enableMetrics());
    info.put("enable_http2", false);
    disaggregation.describe(info);
    info.putNull("speculative_algorithm");
    info.put("context_length", opts.contextLength());
    info.put("max_running_requests", opts.maxRunningRequests());
    info.put("max_total_num_tokens", opts.cacheTokens());
    if (opts.kvEventsConfig() == null) {
      info.putNull("kv_events_config");
    } else {
      info.put("kv_events_config", Json.write(opts.kvEventsConfig()));
    }
    info.put("stream_interval", opts.streamInterval());
    info.put("nnodes", opts.nnodes());
    info.put("node_rank", opts.nodeRank());
    if (opts.distInitAddr() == null) {
      info.putNull("dist_init_addr");
    } else {
      info.put("dist_init_addr", opts.distInitAddr());
    }
    ObjectNode out = ServerArgs.resolve(info, opts.otherArgs());
    out.putArray("internal_states").addObject().put("last_gen_throughput", 0.0);
    out.put("version", VERSION);
    out.set("kv_events", kvEventsDescriptor(opts.kvEventsConfig(), opts.pageSize()));
    return out;
  }

  private void modelInfo(HttpExchange ex) throws IOException {
    Http.sendJson(ex, 200, modelInfo());
  }

  private ObjectNode modelInfo() {
    ObjectNode info = Json.object();
    info.put("model_path", opts.modelPath());
    info.put("tokenizer_path", opts.modelPath());
    info.put("is_generation", true);
    info.putNull("preferred_sampling_params");
    info.put("weight_version", "default");
    info.put("has_image_understanding", false);
    info.put("has_audio_understanding", false);
    info.put("model_type", "emulated");
    info.putArray("architectures").add("EmulatedForCausalLM");
    return info;
  }

  private void models(HttpExchange ex) throws IOException {
    ObjectNode list = Json.object().put("object", "list");
    list.putArray("data").addObject()
        .put("id", opts.servedModelName())
        .put("object", "model")
        .put("created", createdEpoch)
        .put("owned_by", "sglang")
        .put("root", opts.servedModelName())
        .put("max_model_len", opts.contextLength());
    Http.sendJson(ex, 200, list);
  }

  private void flushCache(HttpExchange ex) throws IOException {
    if (!Http.require(ex, "POST")) {
      return;
    }
    cache.clear();
    Http.sendText(ex, 200, "Cache flushed.\nPlease check backend logs for more details. "
        + "(When there are running or waiting requests, the operation will not be performed.)\n");
  }

  private void metrics(HttpExchange ex) throws IOException {
    if (!opts.enableMetrics()) {
      Http.sendJson(ex, 404, Http.error("Not Found: /metrics (start with --enable-metrics)", "NotFound", 404));
      return;
    }
    String m = opts.servedModelName();
    double prompt = promptTokens.sum();
    double cached = cachedTokens.sum();
    PrometheusText p = new PrometheusText()
        .counter("sglang:prompt_tokens_total", "Number of prefill tokens processed.", prompt, "model_name", m)
        .counter("sglang:generation_tokens_total", "Number of generation tokens processed.", generationTokens.sum(), "model_name", m)
        .counter("sglang:cached_tokens_total", "Number of cached prompt tokens.", cached, "cache_source", "device", "model_name", m)
        .counter("sglang:num_requests_total", "Number of requests processed.", requests.sum(), "model_name", m)
        .gauge("sglang:num_running_reqs", "The number of running requests.", running.get(), "model_name", m)
        .gauge("sglang:num_queue_reqs", "The number of requests in the waiting queue.", queued.get(), "model_name", m)
        .gauge("sglang:cache_hit_rate", "The prefix cache hit rate.", prompt == 0 ? 0 : cached / prompt, "model_name", m)
        .gauge("sglang:token_usage", "The token usage.", (double) cache.size() / cache.capacityBlocks(), "model_name", m);
    Http.send(ex, 200, PrometheusText.CONTENT_TYPE, p.toString());
  }

  private void chat(HttpExchange ex) throws IOException {
    if (!Http.require(ex, "POST") || answerUnlessReady(ex)) {
      return;
    }
    JsonNode req = Json.parse(Http.readBody(ex));
    JsonNode messages = req.get("messages");
    if (messages == null || !messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException("messages must be a non-empty array");
    }
    List<String> prompt = ChatPrompt.tokens(messages);
    int maxTokens = req.has("max_completion_tokens")
        ? req.get("max_completion_tokens").asInt()
        : req.path("max_tokens").asInt(DEFAULT_MAX_TOKENS);
    DeterministicReply reply = DeterministicReply.answer(
        ChatPrompt.lastUserText(messages), prompt, maxTokens, req.path("ignore_eos").asBoolean(false));
    Disaggregation.Room room = disaggregation.room(req);
    boolean prefillOnly = room != null && opts.disaggregation().prefill();
    queued.incrementAndGet();
    runningSlots.acquireUninterruptibly();
    queued.decrementAndGet();
    running.incrementAndGet();
    tokensInFlight.addAndGet(prompt.size());
    try {
      int cached;
      if (room != null && opts.disaggregation().decode()) {
        Disaggregation.Transfer transfer;
        try {
          transfer = disaggregation.receive(room);
        } catch (IOException e) {
          Http.sendJson(ex, 500, Http.error(e.getMessage(), "InternalServerError", 500));
          return;
        }
        cached = decodeFrom(prompt, transfer);
      } else {
        cached = prefill(PromptTokenIds.of(prompt));
        if (prefillOnly) {
          disaggregation.handOff(room, prompt.size(), cached);
        }
      }
      Completion c = new Completion(req.path("model").asText(opts.servedModelName()), prompt.size(), cached, reply);
      if (req.path("stream").asBoolean(false)) {
        stream(ex, c, req.path("stream_options").path("include_usage").asBoolean(false));
      } else {
        decoding.incrementAndGet();
        try {
          sleep(opts.latency().decodeNanos(reply.words().size() - 1, decoding.get()));
        } finally {
          decoding.decrementAndGet();
        }
        ObjectNode response = c.response();
        if (prefillOnly) {
          response.set("disaggregated_params", disaggregation.disaggregatedParams(room));
        }
        Http.sendJson(ex, 200, response);
      }
      // the prefill engine's first token is the decode engine's to count, so P/D totals match aggregated ones
      if (!prefillOnly) {
        generationTokens.add(reply.words().size());
      }
      requests.increment();
    } finally {
      tokensInFlight.addAndGet(-prompt.size());
      running.decrementAndGet();
      runningSlots.release();
    }
  }

  private void load(HttpExchange ex) throws IOException {
    Http.sendJson(ex, 200, EngineLoad.json(running.get(), queued.get(), tokensInFlight.get()));
  }

  /**
   * {@code /generate} and {@code /v1/completions} ({@link TextCompletions}) run through the same
   * slots, prefill lane, cache and counters as chat; always as an aggregated engine.
   */
  private final class TextEngine implements TextCompletions.Engine {
    @Override
    public boolean ready() {
      return ready;
    }

    @Override
    public String servedModelName() {
      return opts.servedModelName();
    }

    @Override
    public int tokensPerChunk(int n) {
      return Math.max(Math.max(1, opts.streamInterval()), (n + opts.maxChunks() - 1) / Math.max(1, opts.maxChunks()));
    }

    @Override
    public void serve(List<String> prompt, DeterministicReply reply, TextCompletions.Reply write) throws IOException {
      queued.incrementAndGet();
      runningSlots.acquireUninterruptibly();
      queued.decrementAndGet();
      running.incrementAndGet();
      tokensInFlight.addAndGet(prompt.size());
      try {
        int cached = prefill(PromptTokenIds.of(prompt));
        decoding.incrementAndGet();
        try {
          write.write(cached, n -> sleep(opts.latency().decodeNanos(n, decoding.get())));
        } finally {
          decoding.decrementAndGet();
        }
        generationTokens.add(reply.words().size());
        requests.increment();
      } finally {
        tokensInFlight.addAndGet(-prompt.size());
        running.decrementAndGet();
        runningSlots.release();
      }
    }
  }

  /**
   * A decode engine's prompt arrives as KV from the prefill engine: no prefill time, and the prompt
   * and cache counters stay with the prefill engine that did the work. Its own prefix cache takes
   * the blocks only with {@code --disaggregation-decode-enable-radix-cache}, as in SGLang. Returns
   * the prefill engine's cached tokens, which the reply's usage reports.
   */
  private int decodeFrom(List<String> prompt, Disaggregation.Transfer transfer) {
    sleep(opts.latency().baseNanos());
    if (opts.disaggregation().decodeRadixCache()) {
      cache.insert(PromptTokenIds.of(prompt));
    }
    return transfer.cachedTokens();
  }

  /**
   * Books the prefill lane, spends the prefill time, caches the prompt; returns cached tokens. The
   * cache is looked up when the request gets its turn on the lane, not when it arrives, as SGLang
   * matches its radix cache when it forms a batch: a request queued behind another of its prefix
   * group finds that prefix cached. Bookings are in lane order, so matching and inserting at
   * booking time is what each prompt would see when its turn comes.
   */
  private int prefill(int[] prompt) {
    sleep(opts.latency().baseNanos());
    int cached;
    long done;
    synchronized (prefillLane) {
      cached = Math.min(cache.matchAndInsert(prompt) * opts.pageSize(), Math.max(0, prompt.length - 1));
      done = prefillLane.book(opts.latency().prefillNanos(prompt.length - cached, cached));
    }
    sleepUntil(done);
    promptTokens.add(prompt.length);
    cachedTokens.add(cached);
    return cached;
  }

  /**
   * Server-sent events in OpenAI's chunk format. Several tokens share a chunk when the reply is
   * longer than {@code SRT_EMULATOR_MAX_CHUNKS} chunks (or {@code --stream-interval} asks for it),
   * which keeps benchmarks cheap; the usage block still counts every token.
   */
  private void stream(HttpExchange ex, Completion c, boolean includeUsage) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "text/event-stream");
    ex.getResponseHeaders().set("Cache-Control", "no-cache");
    ex.sendResponseHeaders(200, 0);
    List<String> words = c.reply.words();
    int n = words.size();
    int perChunk = Math.max(Math.max(1, opts.streamInterval()), (n + opts.maxChunks() - 1) / Math.max(1, opts.maxChunks()));
    try (OutputStream out = ex.getResponseBody()) {
      if (n == 0) {
        event(out, c.chunk("", true, c.reply.finishReason()));
      }
      decoding.incrementAndGet();
      try {
        for (int from = 0; from < n; from += perChunk) {
          int to = Math.min(n, from + perChunk);
          sleep(opts.latency().decodeNanos(from == 0 ? to - from - 1 : to - from, decoding.get()));
          String text = (from == 0 ? "" : " ") + String.join(" ", words.subList(from, to));
          event(out, c.chunk(text, from == 0, to == n ? c.reply.finishReason() : null));
        }
      } finally {
        decoding.decrementAndGet();
      }
      if (includeUsage) {
        ObjectNode u = c.envelope("chat.completion.chunk");
        u.putArray("choices");
        u.set("usage", c.usage());
        event(out, Json.write(u));
      }
      event(out, "[DONE]");
    }
  }

  private static void event(OutputStream out, String data) throws IOException {
    out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static void sleep(long nanos) {
    sleepUntil(System.nanoTime() + nanos);
  }

  private static void sleepUntil(long deadline) {
    for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }

  /**
   * The engine as its gRPC service sees it ({@link EngineGrpcService}): a tokenized request is
   * admitted, prefilled and decoded as a chat request is, and streams its output ids incrementally
   * (the engine runs with {@code --incremental-streaming-output} for the sidecar), in at most
   * {@code SRT_EMULATOR_MAX_CHUNKS} chunks. The output repeats the prompt's ids (ids the model's
   * tokenizer knows); {@code max_new_tokens} of them (default 64), finishing with {@code length}.
   */
  private final class TokenizedEngine implements EngineGrpcService.Engine {
    @Override
    public boolean healthy() {
      return ready;
    }

    @Override
    public String serverInfoJson() {
      return Json.write(serverInfo());
    }

    @Override
    public String modelPath() {
      return opts.modelPath();
    }

    @Override
    public String modelInfoJson() {
      return Json.write(modelInfo());
    }

    @Override
    public String servedModelName() {
      return opts.servedModelName();
    }

    @Override
    public int contextLength() {
      return opts.contextLength();
    }

    @Override
    public void generate(SglangProto.GenerateRequest req, EngineGrpcService.GenerateSink sink) {
      int[] prompt = req.inputIds();
      int n = req.maxNewTokens() == null ? DEFAULT_MAX_TOKENS : Math.max(0, req.maxNewTokens());
      queued.incrementAndGet();
      runningSlots.acquireUninterruptibly();
      queued.decrementAndGet();
      running.incrementAndGet();
      decoding.incrementAndGet();
      try {
        int cached = prefill(prompt);
        int perChunk = Math.max(Math.max(1, opts.streamInterval()), (n + opts.maxChunks() - 1) / Math.max(1, opts.maxChunks()));
        int sent = 0;
        do {
          int to = Math.min(n, sent + perChunk);
          sleep(opts.latency().decodeNanos(sent == 0 ? Math.max(0, to - sent - 1) : to - sent, decoding.get()));
          if (sink.cancelled()) {
            return;
          }
          int[] ids = new int[to - sent];
          for (int i = 0; i < ids.length; i++) {
            ids[i] = prompt.length == 0 ? 0 : prompt[(sent + i) % prompt.length];
          }
          sent = to;
          sink.chunk(ids, meta(req, prompt.length, cached, sent, sent == n), sent == n);
        } while (sent < n);
        generationTokens.add(n);
        requests.increment();
      } finally {
        decoding.decrementAndGet();
        running.decrementAndGet();
        runningSlots.release();
      }
    }

    /** SGLang's meta_info, each value JSON text as its gRPC server writes it. */
    private Map<String, String> meta(SglangProto.GenerateRequest req, int promptTokens, int cached, int completion, boolean last) {
      Map<String, String> m = new java.util.LinkedHashMap<>();
      m.put("id", Json.write(Json.mapper().getNodeFactory().textNode(req.rid() == null ? "" : req.rid())));
      m.put("prompt_tokens", String.valueOf(promptTokens));
      m.put("completion_tokens", String.valueOf(completion));
      m.put("cached_tokens", String.valueOf(cached));
      m.put("finish_reason", last ? "{\"type\":\"length\",\"length\":" + completion + "}" : "null");
      return m;
    }
  }

  /** One finished prefill and the reply it will stream. */
  private static final class Completion {
    final String id = "chatcmpl-" + UUID.randomUUID().toString().replace("-", "");
    final long created = System.currentTimeMillis() / 1000;
    final String model;
    final int promptTokens;
    final int cachedTokens;
    final DeterministicReply reply;

    Completion(String model, int promptTokens, int cachedTokens, DeterministicReply reply) {
      this.model = model;
      this.promptTokens = promptTokens;
      this.cachedTokens = cachedTokens;
      this.reply = reply;
    }

    ObjectNode envelope(String object) {
      return Json.object().put("id", id).put("object", object).put("created", created).put("model", model);
    }

    ObjectNode usage() {
      int completion = reply.words().size();
      ObjectNode u = Json.object()
          .put("prompt_tokens", promptTokens)
          .put("total_tokens", promptTokens + completion)
          .put("completion_tokens", completion);
      u.putObject("prompt_tokens_details").put("cached_tokens", cachedTokens);
      return u;
    }

    ObjectNode response() {
      ObjectNode r = envelope("chat.completion");
      ObjectNode choice = r.putArray("choices").addObject();
      choice.put("index", 0);
      choice.putObject("message").put("role", "assistant").put("content", reply.text())
          .putNull("reasoning_content").putNull("tool_calls");
      choice.putNull("logprobs");
      choice.put("finish_reason", reply.finishReason());
      choice.putNull("matched_stop");
      r.set("usage", usage());
      return r;
    }

    String chunk(String content, boolean first, String finishReason) {
      ObjectNode r = envelope("chat.completion.chunk");
      ObjectNode choice = r.putArray("choices").addObject();
      choice.put("index", 0);
      ObjectNode delta = choice.putObject("delta");
      if (first) {
        delta.put("role", "assistant");
      }
      delta.put("content", content);
      choice.putNull("logprobs");
      if (finishReason == null) {
        choice.putNull("finish_reason");
      } else {
        choice.put("finish_reason", finishReason);
      }
      choice.putNull("matched_stop");
      r.putNull("usage");
      return Json.write(r);
    }
  }
}
