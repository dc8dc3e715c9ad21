package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * SGLang's {@code bench_serving} client over {@code /v1/chat/completions} (streaming): sends the
 * synthetic workload, measures TTFT, inter-token latency and end-to-end latency from the event
 * stream, appends one JSON line with the real result keys to {@code --output-file} and prints the
 * usual summary. The workload can be shrunk by {@code SRT_EMULATOR_BENCH_SCALE} (prompt count and
 * lengths); every number written describes what was actually sent, and the requested sizes are
 * kept under the extra key {@code emulator}.
 */
public final class BenchServing {
  static final double DEFAULT_SCALE = 0.25;
  /**
   * In flight at most when {@code --max-concurrency} is not given and every request is sent at once
   * ({@code --request-rate inf}): the real tool would open them all, the emulator bounds its threads.
   * With a finite rate there is no bound, as in the real tool: the loop stays open.
   */
  static final int DEFAULT_MAX_CONCURRENCY = 64;
  /** {@code --max-concurrency} not given with a finite rate: no bound. */
  static final int UNBOUNDED = Integer.MAX_VALUE;

  public record Options(String backend, String baseUrl, String model, String datasetName, int numPrompts, long seed,
      double requestRate, int maxConcurrency, int gspGroups, int gspPerGroup, int gspSystemLen,
      int gspQuestionLen, int gspOutputLen, boolean gspOrdered, int randomInputLen, int randomOutputLen, double randomRangeRatio,
      String outputFile, int warmupRequests, boolean flushCache, String tag, JsonNode extraBody, boolean ignoreEos,
      double temperature, double readyTimeoutSec, double scale, boolean outputDetails) {

    public static Options parse(List<String> argv, Map<String, String> env, PrintStream err) {
      ArgParser.Parsed a = new ArgParser("sglang.bench_serving")
          .value("--backend").value("--base-url").value("--host").value("--port").value("--model")
          .value("--served-model-name").value("--tokenizer").value("--dataset-name").value("--num-prompts")
          .value("--seed").value("--request-rate").value("--max-concurrency")
          .value("--gsp-num-groups").value("--gsp-prompts-per-group").value("--gsp-system-prompt-len")
          .value("--gsp-question-len").value("--gsp-output-len").flag("--gsp-ordered")
          .value("--random-input-len").value("--random-output-len").value("--random-range-ratio")
          .value("--output-file").flag("--disable-tqdm").value("--warmup-requests").flag("--flush-cache")
          .value("--tag").value("--extra-request-body").flag("--disable-ignore-eos").value("--temperature")
          .value("--ready-check-timeout-sec").flag("--output-details")
          .parse(argv);
      a.reportIgnored("sglang.bench_serving", err);
      String backend = a.get("--backend", "sglang");
      String base = a.get("--base-url");
      if (base == null) {
        String host = a.get("--host", "127.0.0.1");
        base = "http://" + (host.equals("0.0.0.0") ? "127.0.0.1" : host) + ":"
            + a.getInt("--port", backend.startsWith("vllm") ? 8000 : 30000);
      }
      String extra = a.get("--extra-request-body");
      String rate = a.get("--request-rate", "inf");
      String scaleEnv = env.get("SRT_EMULATOR_BENCH_SCALE");
      return new Options(backend, base.replaceAll("/+$", ""), a.get("--model", a.get("--served-model-name")),
          a.get("--dataset-name", "random"), a.getInt("--num-prompts", 1000), Long.parseLong(a.get("--seed", "1")),
          rate.equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(rate),
          a.has("--max-concurrency") ? a.getInt("--max-concurrency", DEFAULT_MAX_CONCURRENCY)
              : rate.equalsIgnoreCase("inf") ? DEFAULT_MAX_CONCURRENCY : UNBOUNDED,
          a.getInt("--gsp-num-groups", 64), a.getInt("--gsp-prompts-per-group", 16), a.getInt("--gsp-system-prompt-len", 2048),
          a.getInt("--gsp-question-len", 128), a.getInt("--gsp-output-len", 256), a.flag("--gsp-ordered"),
          a.getInt("--random-input-len", 1024), a.getInt("--random-output-len", 1024), a.getDouble("--random-range-ratio", 0.0),
          a.get("--output-file"), a.getInt("--warmup-requests", 1), a.flag("--flush-cache"), a.get("--tag"),
          extra == null ? Json.object() : Json.parse(extra), !a.flag("--disable-ignore-eos"), a.getDouble("--temperature", 0.0),
          a.getDouble("--ready-check-timeout-sec", 60), scaleEnv == null ? DEFAULT_SCALE : Double.parseDouble(scaleEnv),
          a.flag("--output-details"));
    }

    /** Only the request side, for a client with a schedule of its own (AIPerf). */
    static Options client(String baseUrl, long seed, JsonNode extraBody, boolean ignoreEos) {
      return new Options("sglang-oai-chat", baseUrl, null, "custom", 0, seed, Double.POSITIVE_INFINITY, DEFAULT_MAX_CONCURRENCY,
          0, 0, 0, 0, 0, false, 0, 0, 0, null, 0, false, null, extraBody, ignoreEos, 0.0, 60, 1.0, false);
    }

    int scaled(int n) {
      return Math.max(1, (int) Math.ceil(n * scale));
    }

    boolean sharedPrefix() {
      return datasetName.equals("generated-shared-prefix");
    }
  }

  /** What one request did; {@code failure} is null for a success. */
  record Outcome(boolean success, int promptLen, int outputLen, int retokenized, double latency, double ttft,
      List<Double> itls, String text, RequestFailure failure) {
    static Outcome failed(int promptLen, RequestFailure failure) {
      return new Outcome(false, promptLen, 0, 0, 0, 0, List.of(), "", failure);
    }

    String error() {
      return failure == null ? null : failure.toString();
    }
  }

  private final Options opts;
  private final PrintStream out;
  private final PrintStream err;
  private final HttpClient client = Http.client();
  private final Map<Long, Integer> tokensBySecond = new ConcurrentHashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicLong benchStart = new AtomicLong();

  public BenchServing(Options opts, PrintStream out, PrintStream err) {
    this.opts = opts;
    this.out = out;
    this.err = err;
  }

  /**
   * Runs the benchmark. Like the real tool, failed requests are reported (not in {@code completed};
   * in {@code errors} with {@code --output-details}) and do not fail the benchmark, not even when
   * every request failed: SGLang's bench_serving then only warns ("All requests failed. ...", a
   * Python {@code UserWarning} on stderr), writes its row with {@code completed} 0 and the latency
   * numbers of an empty list ({@code np.mean(ttfts or 0)}: 0), and exits 0. It exits 1 when the
   * server never answered or every warm-up request failed (its "Initial test run failed").
   */
  public int run() throws IOException, InterruptedException {
    if (!opts.backend().endsWith("-chat")) {
      err.println("bench_serving (emulated): backend " + opts.backend() + " is sent to /v1/chat/completions, "
          + "the only API the emulated servers share");
    }
    if (!waitUntilServing()) {
      err.println("bench_serving (emulated): " + opts.baseUrl() + "/v1/models did not answer within "
          + opts.readyTimeoutSec() + " s");
      return 1;
    }
    String model = opts.model() != null ? opts.model() : firstModel();
    List<BenchWorkload.Prompt> prompts = workload();
    JsonNode serverInfo = serverInfo();
    ExecutorService pool = Http.daemonPool("bench-request");
    try {
      // bench_serving sends its warm-up requests all at once (asyncio.gather), waits for them, and
      // stops only when none succeeded (a router shedding some of a burst is still measured)
      List<Future<Outcome>> warmup = new ArrayList<>();
      for (int i = 0; i < opts.warmupRequests() && !prompts.isEmpty(); i++) {
        warmup.add(pool.submit(() -> send(model, prompts.get(0))));
      }
      Outcome firstWarmup = null;
      boolean anyWarmupSucceeded = false;
      for (Future<Outcome> f : warmup) {
        Outcome w;
        try {
          w = f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          w = Outcome.failed(0, RequestFailure.exception(e.getCause()));
        }
        firstWarmup = firstWarmup == null ? w : firstWarmup;
        anyWarmupSucceeded |= w.success();
      }
      if (firstWarmup != null && !anyWarmupSucceeded) {
        err.println("bench_serving (emulated): warmup failed: " + firstWarmup.error());
        return 1;
      }
      if (opts.flushCache() && !flushCache()) {
        return 1;
      }
      out.println("#Input tokens: " + prompts.stream().mapToInt(BenchWorkload.Prompt::promptLen).sum());
      out.println("#Output tokens: " + prompts.stream().mapToInt(BenchWorkload.Prompt::outputLen).sum());
      List<Outcome> outcomes = runAll(model, prompts, pool);
      double duration = (System.nanoTime() - benchStart.get()) / 1e9;
      ObjectNode result = result(outcomes, duration, serverInfo);
      printSummary(result);
      Path f = Path.of(opts.outputFile() != null ? opts.outputFile() : defaultOutputFile()).toAbsolutePath();
      Files.createDirectories(f.getParent());
      Files.writeString(f, Json.write(result) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      long failed = outcomes.stream().filter(o -> !o.success()).count();
      if (failed > 0) {
        outcomes.stream().filter(o -> !o.success()).limit(3).forEach(o -> err.println("bench_serving (emulated): request failed: " + o.error()));
        err.println("bench_serving (emulated): " + failed + " of " + outcomes.size() + " requests failed");
      }
      if (result.path("completed").asInt() == 0) {
        err.println("bench_serving.py: UserWarning: All requests failed. This is likely due to a misconfiguration on the benchmark arguments.");
      }
      return 0;
    } finally {
      pool.shutdownNow();
    }
  }

  /** bench_serving's own name when no {@code --output-file} is given. */
  private String defaultOutputFile() {
    String mmdd = String.format("%02d%02d", LocalDate.now().getMonthValue(), LocalDate.now().getDayOfMonth());
    return opts.backend() + "_" + mmdd + "_" + opts.numPrompts()
        + (opts.datasetName().equals("random") ? "_" + opts.randomInputLen() + "_" + opts.randomOutputLen() : "_sharegpt") + ".jsonl";
  }

  List<BenchWorkload.Prompt> workload() {
    if (opts.sharedPrefix()) {
      return BenchWorkload.sharedPrefix(opts.gspGroups(), opts.scaled(opts.gspPerGroup()), opts.scaled(opts.gspSystemLen()),
          opts.scaled(opts.gspQuestionLen()), opts.scaled(opts.gspOutputLen()), opts.gspOrdered(), opts.seed());
    }
    if (!opts.datasetName().equals("random")) {
      err.println("bench_serving (emulated): dataset " + opts.datasetName() + " is not emulated; using random");
    }
    return BenchWorkload.random(opts.scaled(opts.numPrompts()), opts.scaled(opts.randomInputLen()),
        opts.scaled(opts.randomOutputLen()), opts.randomRangeRatio(), opts.seed());
  }

  private boolean waitUntilServing() throws InterruptedException {
    long deadline = System.nanoTime() + (long) (opts.readyTimeoutSec() * 1e9);
    do {
      try {
        if (get("/v1/models").statusCode() == 200) {
          return true;
        }
      } catch (IOException e) {
        // not up yet
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    return false;
  }

  private String firstModel() throws IOException, InterruptedException {
    JsonNode data = Json.parse(get("/v1/models").body()).path("data");
    if (data.isEmpty()) {
      throw new IOException(opts.baseUrl() + "/v1/models lists no model; pass --model");
    }
    return data.get(0).path("id").asText();
  }

  /** The server's /server_info, or null where there is none (routers answer 404). */
  private JsonNode serverInfo() {
    try {
      HttpResponse<byte[]> r = get("/server_info");
      return r.statusCode() == 200 ? Json.parse(r.body()) : null;
    } catch (IOException | IllegalArgumentException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private boolean flushCache() throws InterruptedException {
    try {
      HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(opts.baseUrl() + "/flush_cache"))
          .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() == 200) {
        return true;
      }
      err.println("bench_serving (emulated): --flush-cache: " + opts.baseUrl() + "/flush_cache answered " + r.statusCode());
    } catch (IOException e) {
      err.println("bench_serving (emulated): --flush-cache failed: " + e.getMessage());
    }
    return false;
  }

  private HttpResponse<byte[]> get(String path) throws IOException, InterruptedException {
    return client.send(HttpRequest.newBuilder(URI.create(opts.baseUrl() + path)).timeout(Duration.ofSeconds(5)).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /** Sends every prompt at the arrival times {@code --request-rate} gives, at most {@code --max-concurrency} at once. */
  private List<Outcome> runAll(String model, List<BenchWorkload.Prompt> prompts, ExecutorService pool) throws InterruptedException {
    Semaphore slots = new Semaphore(opts.maxConcurrency());
    Random arrivals = new Random(opts.seed());
    List<Future<Outcome>> futures = new ArrayList<>();
    benchStart.set(System.nanoTime());
    double at = 0;
    for (BenchWorkload.Prompt p : prompts) {
      if (Double.isFinite(opts.requestRate())) {
        at += -Math.log(1 - arrivals.nextDouble()) / opts.requestRate();
        long wait = benchStart.get() + (long) (at * 1e9) - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
      futures.add(pool.submit(() -> {
        slots.acquire();
        try {
          return send(model, p);
        } finally {
          slots.release();
        }
      }));
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (Future<Outcome> f : futures) {
      try {
        outcomes.add(f.get());
      } catch (java.util.concurrent.ExecutionException e) {
        outcomes.add(Outcome.failed(0, RequestFailure.exception(e.getCause())));
      }
    }
    return outcomes;
  }

  Outcome send(String model, BenchWorkload.Prompt p) {
    ObjectNode body = Json.object().put("model", model);
    body.putArray("messages").addObject().put("role", "user").put("content", p.text());
    body.put("max_tokens", p.outputLen()).put("temperature", opts.temperature()).put("stream", true);
    body.putObject("stream_options").put("include_usage", true);
    if (opts.ignoreEos()) {
      body.put("ignore_eos", true);
    }
    for (Map.Entry<String, JsonNode> e : opts.extraBody().properties()) {
      body.set(e.getKey(), e.getValue());
    }
    HttpRequest req = HttpRequest.newBuilder(URI.create(opts.baseUrl() + "/v1/chat/completions"))
        .timeout(Duration.ofMinutes(10)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))).build();
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    long start = System.nanoTime();
    try {
      HttpResponse<InputStream> resp = Http.request(client, req, HttpResponse.BodyHandlers.ofInputStream());
      try (BufferedReader in = new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8))) {
        if (resp.statusCode() != 200) {
          return Outcome.failed(p.promptLen(), RequestFailure.http(resp.statusCode(), in.lines().reduce("", String::concat)));
        }
        return readStream(p, in, start);
      }
    } catch (IOException | RuntimeException e) {
      return Outcome.failed(p.promptLen(), RequestFailure.exception(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.failed(p.promptLen(), RequestFailure.of("interrupted"));
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private Outcome readStream(BenchWorkload.Prompt p, BufferedReader in, long start) throws IOException {
    double ttft = 0;
    long last = start;
    List<Double> itls = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    int completionTokens = -1;
    boolean done = false;
    for (String line; (line = in.readLine()) != null; ) {
      if (!line.startsWith("data:")) {
        continue;
      }
      String data = line.substring(5).trim();
      if (data.equals("[DONE]")) {
        done = true;
        break;
      }
      JsonNode chunk = Json.parse(data);
      if (chunk.has("error")) {
        return Outcome.failed(p.promptLen(), RequestFailure.inStream(chunk.get("error")));
      }
      JsonNode usage = chunk.path("usage");
      if (usage.isObject()) {
        completionTokens = usage.path("completion_tokens").asInt();
      }
      String content = chunk.path("choices").path(0).path("delta").path("content").asText("");
      if (content.isEmpty()) {
        continue;
      }
      long t = System.nanoTime();
      if (ttft == 0) {
        ttft = (t - start) / 1e9;
      } else {
        itls.add((t - last) / 1e9);
      }
      last = t;
      text.append(content);
      tokensBySecond.merge((t - benchStart.get()) / 1_000_000_000L, ChatPrompt.countWords(content), Integer::sum);
    }
    if (!done) {
      return Outcome.failed(p.promptLen(), RequestFailure.of("stream ended without [DONE]"));
    }
    int words = ChatPrompt.countWords(text.toString());
    return new Outcome(true, p.promptLen(), completionTokens >= 0 ? completionTokens : words, words,
        (System.nanoTime() - start) / 1e9, ttft, itls, text.toString(), null);
  }

  /** The result line, with bench_serving's key names and semantics. */
  ObjectNode result(List<Outcome> outcomes, double duration, JsonNode serverInfo) {
    List<Double> ttfts = new ArrayList<>();
    List<Double> tpots = new ArrayList<>();
    List<Double> itls = new ArrayList<>();
    List<Double> e2es = new ArrayList<>();
    long in = 0;
    long outTokens = 0;
    long retok = 0;
    int completed = 0;
    for (Outcome o : outcomes) {
      if (!o.success()) {
        continue;
      }
      completed++;
      in += o.promptLen();
      outTokens += o.outputLen();
      retok += o.retokenized();
      ttfts.add(o.ttft() * 1000);
      e2es.add(o.latency() * 1000);
      o.itls().forEach(v -> itls.add(v * 1000));
      if (o.outputLen() > 1) {
        tpots.add((o.latency() - o.ttft()) / (o.outputLen() - 1) * 1000);
      }
    }
    ObjectNode r = Json.object();
    if (opts.tag() == null) {
      r.putNull("tag");
    } else {
      r.put("tag", opts.tag());
    }
    r.put("backend", opts.backend()).put("dataset_name", opts.datasetName());
    if (Double.isInfinite(opts.requestRate())) {
      r.put("request_rate", "inf");
    } else {
      r.put("request_rate", opts.requestRate());
    }
    if (opts.maxConcurrency() == UNBOUNDED) {
      r.putNull("max_concurrency");
    } else {
      r.put("max_concurrency", opts.maxConcurrency());
    }
    r.putNull("sharegpt_output_len");
    r.put("random_input_len", opts.scaled(opts.randomInputLen())).put("random_output_len", opts.scaled(opts.randomOutputLen()))
        .put("random_range_ratio", opts.randomRangeRatio());
    r.set("server_info", serverInfo);
    r.put("duration", duration).put("completed", completed)
        .put("total_input_tokens", in).put("total_input_text_tokens", in).put("total_input_vision_tokens", 0)
        .put("total_output_tokens", outTokens).put("total_output_tokens_retokenized", retok)
        .put("request_throughput", completed / duration).put("input_throughput", in / duration)
        .put("output_throughput", outTokens / duration).put("total_throughput", (in + outTokens) / duration);
    stats(r, "e2e_latency", e2es);
    stats(r, "ttft", ttfts);
    stats(r, "tpot", tpots);
    stats(r, "itl", itls);
    r.put("max_itl_ms", new BenchStats(itls).max());
    r.put("concurrency", e2es.stream().mapToDouble(Double::doubleValue).sum() / 1000 / duration);
    r.putNull("accept_length");
    r.put("max_output_tokens_per_s", tokensBySecond.values().stream().mapToInt(Integer::intValue).max().orElse(0));
    r.put("max_concurrent_requests", maxInFlight.get());
    if (opts.outputDetails()) {
      details(r, outcomes);
    }
    ObjectNode emu = r.putObject("emulator");
    emu.put("scale", opts.scale()).put("num_requests", outcomes.size()).put("failed", outcomes.size() - completed);
    ObjectNode asked = emu.putObject("requested");
    if (opts.sharedPrefix()) {
      asked.put("gsp_num_groups", opts.gspGroups()).put("gsp_prompts_per_group", opts.gspPerGroup())
          .put("gsp_system_prompt_len", opts.gspSystemLen()).put("gsp_question_len", opts.gspQuestionLen())
          .put("gsp_output_len", opts.gspOutputLen());
      emu.put("gsp_prompts_per_group", opts.scaled(opts.gspPerGroup())).put("gsp_system_prompt_len", opts.scaled(opts.gspSystemLen()))
          .put("gsp_question_len", opts.scaled(opts.gspQuestionLen())).put("gsp_output_len", opts.scaled(opts.gspOutputLen()));
    } else {
      asked.put("num_prompts", opts.numPrompts()).put("random_input_len", opts.randomInputLen())
          .put("random_output_len", opts.randomOutputLen());
    }
    return r;
  }

  /** Words of each generated text kept under {@code --output-details}: the result line stays small. */
  static final int DETAIL_TEXT_WORDS = 8;

  /**
   * {@code --output-details}: one entry per request, failures included, in request order, as the
   * real tool writes them (seconds; an empty error for a success). Generated texts are cut to
   * their first {@value #DETAIL_TEXT_WORDS} words.
   */
  private static void details(ObjectNode r, List<Outcome> outcomes) {
    var inputLens = r.putArray("input_lens");
    var outputLens = r.putArray("output_lens");
    var ttfts = r.putArray("ttfts");
    var itls = r.putArray("itls");
    var texts = r.putArray("generated_texts");
    var errors = r.putArray("errors");
    for (Outcome o : outcomes) {
      inputLens.add(o.promptLen());
      outputLens.add(o.outputLen());
      ttfts.add(o.ttft());
      var gaps = itls.addArray();
      o.itls().forEach(gaps::add);
      String[] words = o.text().isBlank() ? new String[0] : o.text().trim().split("\\s+");
      texts.add(String.join(" ", java.util.Arrays.asList(words).subList(0, Math.min(words.length, DETAIL_TEXT_WORDS))));
      errors.add(o.failure() == null ? "" : o.failure().benchServingText());
    }
  }

  private static void stats(ObjectNode r, String name, List<Double> values) {
    BenchStats s = new BenchStats(values);
    r.put("mean_" + name + "_ms", s.mean()).put("median_" + name + "_ms", s.median()).put("std_" + name + "_ms", s.std())
        .put("p90_" + name + "_ms", s.percentile(90)).put("p95_" + name + "_ms", s.percentile(95))
        .put("p99_" + name + "_ms", s.percentile(99));
  }

  private void printSummary(ObjectNode r) {
    out.println("\n============ Serving Benchmark Result ============");
    line("Backend:", r.path("backend").asText());
    line("Traffic request rate:", r.path("request_rate").asText());
    line("Max request concurrency:", r.path("max_concurrency").asText());
    line("Successful requests:", r.path("completed").asText());
    line("Benchmark duration (s):", fmt(r, "duration"));
    line("Total input tokens:", r.path("total_input_tokens").asText());
    line("Total generated tokens:", r.path("total_output_tokens").asText());
    line("Request throughput (req/s):", fmt(r, "request_throughput"));
    line("Input token throughput (tok/s):", fmt(r, "input_throughput"));
    line("Output token throughput (tok/s):", fmt(r, "output_throughput"));
    line("Total token throughput (tok/s):", fmt(r, "total_throughput"));
    line("Concurrency:", fmt(r, "concurrency"));
    out.println("----------------End-to-End Latency----------------");
    line("Mean E2E Latency (ms):", fmt(r, "mean_e2e_latency_ms"));
    line("Median E2E Latency (ms):", fmt(r, "median_e2e_latency_ms"));
    out.println("---------------Time to First Token----------------");
    line("Mean TTFT (ms):", fmt(r, "mean_ttft_ms"));
    line("Median TTFT (ms):", fmt(r, "median_ttft_ms"));
    line("P99 TTFT (ms):", fmt(r, "p99_ttft_ms"));
    out.println("-----Time per Output Token (excl. 1st token)------");
    line("Mean TPOT (ms):", fmt(r, "mean_tpot_ms"));
    line("Median TPOT (ms):", fmt(r, "median_tpot_ms"));
    line("P99 TPOT (ms):", fmt(r, "p99_tpot_ms"));
    out.println("---------------Inter-Token Latency----------------");
    line("Mean ITL (ms):", fmt(r, "mean_itl_ms"));
    line("Median ITL (ms):", fmt(r, "median_itl_ms"));
    line("P95 ITL (ms):", fmt(r, "p95_itl_ms"));
    line("P99 ITL (ms):", fmt(r, "p99_itl_ms"));
    line("Max ITL (ms):", fmt(r, "max_itl_ms"));
    out.println("==================================================");
  }

  private void line(String label, String value) {
    out.printf("%-40s %s%n", label, value);
  }

  private static String fmt(ObjectNode r, String key) {
    return String.format(java.util.Locale.ROOT, "%.2f", r.path(key).asDouble());
  }
}
