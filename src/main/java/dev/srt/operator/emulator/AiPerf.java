package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * {@code aiperf profile} against {@code /v1/chat/completions} (streaming): synthetic prompts
 * ({@code --request-count} at {@code --concurrency} or {@code --request-rate}, lengths around
 * {@code --synthetic-input-tokens-mean}/{@code --output-tokens-mean}) or a Mooncake trace
 * ({@code --input-file} with {@code --custom-dataset-type mooncake_trace}: records with
 * {@code input_length}, {@code output_length}, {@code hash_ids} and, with {@code --fixed-schedule},
 * {@code timestamp} in ms). Requests that share a hash id share that prompt block, so traces keep
 * their prefix reuse. Writes {@code <prefix>_aiperf.json} (the export schema's metric blocks) and
 * {@code <prefix>.jsonl} (one record per request) into {@code --output-artifact-dir}.
 */
public final class AiPerf {
  /** The real AIPerf whose exports this mirrors (RealAiPerfDriftIT compares them), marked emulated. */
  static final String VERSION = "0.13.0+emulated";
  /** Its export's schema_version. */
  static final String SCHEMA_VERSION = "1.4";
  /** Mooncake traces count prompt blocks of 512 tokens (AIPerf's default block size). */
  static final int TRACE_BLOCK_TOKENS = 512;

  /** {@code --concurrency} not given with {@code --request-rate}: no bound, the loop stays open. */
  static final int UNBOUNDED = Integer.MAX_VALUE;

  /**
   * @param concurrency in flight at most: {@code --concurrency}, 1 when neither it nor a rate is given, {@link #UNBOUNDED} for a rate alone
   * @param durationSeconds {@code --benchmark-duration}: send (cycling the dataset) until then, instead of {@code --request-count}; 0 when not given
   */
  public record Options(String model, String url, long seed, Path artifactDir, String prefix, int requestCount, int concurrency,
      double requestRate, double durationSeconds, int isl, int islStd, int osl, int oslStd, Path inputFile, String datasetType,
      boolean fixedSchedule, boolean autoOffset, ObjectNode extraInputs, double scale, int warmup, String tokenizer, List<String> argv) {

    public static Options parse(List<String> argv, Map<String, String> env, PrintStream err) {
      // Strict: refuses what aiperf 0.13.0's cyclopts app refuses (flags/aiperf.flags).
      ArgParser.Parsed a = ArgParser.strict("aiperf").withPositionals()
          .value("--model", "-m", "--model-names").value("--url", "-u").value("--endpoint-type").flag("--streaming")
          .value("--random-seed").value("--output-artifact-dir", "--artifact-dir").value("--profile-export-prefix")
          .value("--tokenizer").flag("--tokenizer-trust-remote-code").value("--request-count", "--num-requests")
          .value("--concurrency").value("--request-rate").value("--synthetic-input-tokens-mean", "--prompt-input-tokens-mean", "--isl")
          .value("--synthetic-input-tokens-stddev", "--isl-stddev").value("--output-tokens-mean", "--prompt-output-tokens-mean", "--osl")
          .value("--output-tokens-stddev", "--osl-stddev").value("--input-file").value("--custom-dataset-type")
          .flag("--fixed-schedule").flag("--fixed-schedule-auto-offset").list("--extra-inputs")
          .value("--request-timeout-seconds").value("--ui").flag("--no-server-metrics").flag("--use-legacy-max-tokens")
          .value("--warmup-request-count", "--num-warmup-requests").value("--goodput").value("--benchmark-duration")
          .parse(argv);
      a.reportIgnored("aiperf", err);
      if (a.positional().isEmpty() || !a.positional().get(0).equals("profile")) {
        throw new IllegalArgumentException("the emulated aiperf runs `aiperf profile ...`");
      }
      String model = a.get("--model");
      if (model == null) {
        // aiperf refuses it when it resolves the config (exit 1): "benchmark.models.items: List should have at least 1 item".
        throw new ArgParser.UsageError(1, "--model is required: benchmark.models must have at least 1 item");
      }
      if (!"chat".equals(a.get("--endpoint-type", "chat"))) {
        err.println("aiperf (emulated): --endpoint-type " + a.get("--endpoint-type") + " is sent to /v1/chat/completions");
      }
      ObjectNode extra = Json.object();
      for (String kv : a.list("--extra-inputs")) {
        int colon = kv.indexOf(':');
        if (colon <= 0) {
          throw new IllegalArgumentException("--extra-inputs takes key:value, got " + kv);
        }
        extra.set(kv.substring(0, colon), value(kv.substring(colon + 1)));
      }
      String url = a.get("--url", "http://localhost:8000");
      String scaleEnv = env.get("SRT_EMULATOR_BENCH_SCALE");
      String input = a.get("--input-file");
      return new Options(model, (url.contains("://") ? url : "http://" + url).replaceAll("/+$", ""),
          Long.parseLong(a.get("--random-seed", "0")), Path.of(a.get("--output-artifact-dir", "artifacts")),
          a.get("--profile-export-prefix", "profile_export"), a.getInt("--request-count", 10),
          a.has("--concurrency") ? a.getInt("--concurrency", 1) : a.has("--request-rate") ? UNBOUNDED : 1,
          a.getDouble("--request-rate", 0), a.getDouble("--benchmark-duration", 0), a.getInt("--synthetic-input-tokens-mean", 550), a.getInt("--synthetic-input-tokens-stddev", 0),
          a.getInt("--output-tokens-mean", 64), a.getInt("--output-tokens-stddev", 0), input == null ? null : Path.of(input),
          a.get("--custom-dataset-type"), a.flag("--fixed-schedule"), a.flag("--fixed-schedule-auto-offset"), extra,
          scaleEnv == null ? BenchServing.DEFAULT_SCALE : Double.parseDouble(scaleEnv), a.getInt("--warmup-request-count", 0),
          a.get("--tokenizer", model), List.copyOf(argv));
    }

    private static JsonNode value(String text) {
      try {
        return Json.parse(text);
      } catch (RuntimeException e) {
        return Json.mapper().getNodeFactory().textNode(text);
      }
    }

    int scaled(int n) {
      return Math.max(1, (int) Math.ceil(n * scale));
    }
  }

  /** One request of the dataset: its prompt and, with a fixed schedule, when to send it (ms from the start). */
  record Entry(BenchWorkload.Prompt prompt, long atMs) {}

  /** A request sent: what came of it, and when it was sent (ns since the epoch, as AIPerf's records say). */
  record Sent(BenchServing.Outcome outcome, long startNs) {}

  /** The phases AIPerf runs and records: the warm-up (its requests recorded, never counted) and the measured one. */
  enum Phase {
    WARMUP("warmup"), PROFILING("profiling");

    final String wire;

    Phase(String wire) {
      this.wire = wire;
    }
  }

  private final Options opts;
  private final PrintStream out;
  private final PrintStream err;

  public AiPerf(Options opts, PrintStream out, PrintStream err) {
    this.opts = opts;
    this.out = out;
    this.err = err;
  }

  /**
   * 0 once the benchmark ran, even when every request failed: AIPerf counts failed requests in its
   * export's error_summary and leaves out the metrics no record has, and its system controller
   * exits non-zero only for errors of its own services ({@code os._exit(1 if self._exit_errors
   * else 0)}); 1 when the server never answered.
   */
  public int run() throws IOException, InterruptedException {
    List<Entry> dataset;
    try {
      dataset = opts.inputFile() != null ? trace() : synthetic();
    } catch (IllegalArgumentException e) {
      // a dataset the real AIPerf refuses when it configures the profile: its error, exit 1
      err.println("aiperf (emulated): Dataset configuration failed: " + e.getMessage());
      return 1;
    }
    if (!waitForModels()) {
      err.println("aiperf (emulated): " + opts.url() + "/v1/models did not answer");
      return 1;
    }
    BenchServing client = new BenchServing(BenchServing.Options.client(opts.url(), opts.seed(), opts.extraInputs(),
        opts.extraInputs().path("ignore_eos").asBoolean(false)), out, err);
    List<Entry> warmupEntries = new ArrayList<>();
    for (int i = 0; i < opts.warmup() && !dataset.isEmpty(); i++) {
      warmupEntries.add(new Entry(dataset.get(i % dataset.size()).prompt(), 0));
    }
    List<Sent> warmup = send(client, warmupEntries, false);
    LocalDateTime startTime = LocalDateTime.now();
    Instant start = Instant.now();
    List<Sent> sent = send(client, dataset, true);
    List<BenchServing.Outcome> outcomes = sent.stream().map(Sent::outcome).toList();
    Instant end = Instant.now();
    LocalDateTime endTime = LocalDateTime.now();
    double seconds = Math.max(1e-9, Duration.between(start, end).toNanos() / 1e9);
    Files.createDirectories(opts.artifactDir());
    StringBuilder records = new StringBuilder();
    for (int i = 0; i < warmup.size(); i++) {
      records.append(Json.write(record(i, warmup.get(i), Phase.WARMUP, false))).append('\n');
    }
    for (int i = 0; i < sent.size(); i++) {
      records.append(Json.write(record(i, sent.get(i), Phase.PROFILING, !warmup.isEmpty()))).append('\n');
    }
    Files.writeString(opts.artifactDir().resolve(opts.prefix() + ".jsonl"), records.toString(), StandardCharsets.UTF_8);
    long completed = outcomes.stream().filter(BenchServing.Outcome::success).count();
    if (completed == 0 && !outcomes.isEmpty()) {
      // AIPerf 0.13.0 then exports no summary and fails (system_controller.py: "All N inference request(s) failed")
      err.printf("aiperf (emulated): All %d inference request(s) failed; no successful responses were collected.%n", outcomes.size());
      return 1;
    }
    Files.writeString(opts.artifactDir().resolve(opts.prefix() + "_aiperf.json"),
        Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(export(outcomes, seconds, startTime, endTime)) + "\n");
    out.printf("aiperf (emulated): %d/%d requests completed in %.2f s, %.2f requests/sec%n", completed, outcomes.size(), seconds,
        completed / seconds);
    return 0;
  }

  private List<Entry> synthetic() {
    Random r = new Random(opts.seed());
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < opts.requestCount(); i++) {
      int in = opts.scaled(around(r, opts.isl(), opts.islStd()));
      int o = opts.scaled(around(r, opts.osl(), opts.oslStd()));
      out.add(new Entry(new BenchWorkload.Prompt(BenchWorkload.words(r, in), in, o), 0));
    }
    return out;
  }

  private static int around(Random r, int mean, int std) {
    return Math.max(1, (int) Math.round(mean + (std > 0 ? r.nextGaussian() * std : 0)));
  }

  /** A Mooncake trace: each hash id is one block of words, the same wherever the id appears. */
  List<Entry> trace() throws IOException {
    if (opts.datasetType() != null && !opts.datasetType().equals("mooncake_trace")) {
      throw new IllegalArgumentException("the emulated aiperf reads --custom-dataset-type mooncake_trace only, not " + opts.datasetType());
    }
    int block = opts.scaled(TRACE_BLOCK_TOKENS);
    List<Entry> out = new ArrayList<>();
    Long first = null;
    int line = 0;
    for (String text : Files.readAllLines(opts.inputFile())) {
      line++;
      if (text.isBlank()) {
        continue;
      }
      JsonNode rec = Json.parse(text);
      int hashes = rec.path("hash_ids").size();
      int length = rec.path("input_length").asInt(1);
      int last = length - (hashes - 1) * TRACE_BLOCK_TOKENS;
      if (hashes > 0 && (last <= 0 || last > TRACE_BLOCK_TOKENS)) {
        // as aiperf 0.13.0 refuses it (dataset/loader mooncake_trace): each hash id is one block of 512 tokens
        throw new IllegalArgumentException("Input length: " + length + ", Hash IDs: " + rec.path("hash_ids") + ", Block size: "
            + TRACE_BLOCK_TOKENS + " are not compatible. The final hash block size: " + last
            + " must be greater than 0 and less than or equal to " + TRACE_BLOCK_TOKENS + ".");
      }
      int in = opts.scaled(length);
      int o = opts.scaled(rec.path("output_length").asInt(1));
      List<String> words = new ArrayList<>();
      for (JsonNode h : rec.path("hash_ids")) {
        words.addAll(List.of(BenchWorkload.words(new Random(h.asLong() * 7919 + 17), block).split(" ")));
      }
      if (words.size() < in) {
        words.addAll(List.of(BenchWorkload.words(new Random(opts.seed() * 31 + line), in - words.size()).split(" ")));
      }
      long ts = rec.path("timestamp").asLong(0);
      first = first == null ? ts : first;
      out.add(new Entry(new BenchWorkload.Prompt(String.join(" ", words.subList(0, in)), in, o),
          opts.fixedSchedule() ? ts - (opts.autoOffset() ? first : 0) : 0));
    }
    return out;
  }

  /**
   * Sends the dataset: a fixed schedule at each entry's time; otherwise at most --concurrency in
   * flight, each request sent when a slot frees (or at Poisson arrivals with --request-rate); with
   * --benchmark-duration the dataset is sent round and round until the duration is over, and the
   * requests in flight then are awaited.
   */
  private List<Sent> send(BenchServing client, List<Entry> dataset, boolean measured) throws InterruptedException {
    if (dataset.isEmpty()) {
      return List.of();
    }
    ExecutorService pool = Http.daemonPool("aiperf-request");
    try {
      // the warm-up is sent as fast as the concurrency lets, never on the schedule or for the duration
      boolean fixed = measured && opts.fixedSchedule();
      double duration = measured ? opts.durationSeconds() : 0;
      Semaphore slots = new Semaphore(fixed ? Integer.MAX_VALUE : Math.max(1, Math.min(opts.concurrency(), measured ? Integer.MAX_VALUE
          : Math.max(1, dataset.size()))));
      Random arrivals = new Random(opts.seed());
      long t0 = System.nanoTime();
      long stop = duration > 0 ? t0 + (long) (duration * 1e9) : Long.MAX_VALUE;
      double at = 0;
      List<Future<Sent>> futures = new ArrayList<>();
      for (int i = 0; duration > 0 || i < dataset.size(); i++) {
        Entry e = dataset.get(i % dataset.size());
        long due;
        if (fixed) {
          due = t0 + e.atMs() * 1_000_000L;
        } else if (measured && opts.requestRate() > 0) {
          at += -Math.log(1 - arrivals.nextDouble()) / opts.requestRate();
          due = t0 + (long) (at * 1e9);
        } else {
          due = 0;
        }
        long wait = due - System.nanoTime();
        if (due > 0 && wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        slots.acquire();
        if (System.nanoTime() - stop >= 0) {
          slots.release();
          break;
        }
        futures.add(pool.submit(() -> {
          try {
            long startNs = System.currentTimeMillis() * 1_000_000L;
            return new Sent(client.send(opts.model(), e.prompt()), startNs);
          } finally {
            slots.release();
          }
        }));
      }
      List<Sent> sent = new ArrayList<>();
      for (Future<Sent> f : futures) {
        try {
          sent.add(f.get());
        } catch (java.util.concurrent.ExecutionException ex) {
          sent.add(new Sent(BenchServing.Outcome.failed(0, RequestFailure.exception(ex.getCause())), System.currentTimeMillis() * 1_000_000L));
        }
      }
      return sent;
    } finally {
      pool.shutdownNow();
    }
  }

  private boolean waitForModels() throws InterruptedException {
    HttpClient http = Http.client();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(opts.url() + "/v1/models")).timeout(Duration.ofSeconds(5))
            .GET().build(), HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return true;
        }
      } catch (IOException e) {
        // not up yet
      }
      Thread.sleep(200);
    }
    return false;
  }

  /**
   * profile_export_aiperf.json as AIPerf 0.13.0 writes it (schema 1.4): run metadata, its input
   * configuration, then a statistics block per metric tag. Only a subset of its metrics (those the
   * results layer reads, and their neighbours), in its shapes and types: RealAiPerfDriftIT checks
   * that every key written here is one the real tool writes, with the same type.
   */
  ObjectNode export(List<BenchServing.Outcome> outcomes, double seconds, LocalDateTime start, LocalDateTime end) {
    List<BenchServing.Outcome> ok = outcomes.stream().filter(BenchServing.Outcome::success).toList();
    String benchmarkId = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    ObjectNode r = Json.object();
    r.put("schema_version", SCHEMA_VERSION).put("aiperf_version", VERSION).put("benchmark_id", benchmarkId);
    inputConfig(r.putObject("input_config"));
    r.putObject("run_info").put("benchmark_id", benchmarkId).put("random_seed", opts.seed()).put("trial", 0)
        .put("cli_command", String.join(" ", opts.argv()));
    r.put("was_cancelled", false).put("is_complete", true);
    errorSummary(r.putArray("error_summary"), outcomes);
    r.put("start_time", start.toString()).put("end_time", end.toString());
    record(r, "time_to_first_token", "ms", ok, o -> List.of(o.ttft() * 1000));
    record(r, "inter_token_latency", "ms", ok, o -> o.outputLen() > 1 ? List.of((o.latency() - o.ttft()) / (o.outputLen() - 1) * 1000) : List.of());
    record(r, "request_latency", "ms", ok, o -> List.of(o.latency() * 1000));
    record(r, "output_token_throughput_per_user", "tokens/sec/user", ok,
        o -> o.latency() > o.ttft() && o.outputLen() > 1 ? List.of((o.outputLen() - 1) / (o.latency() - o.ttft())) : List.of());
    record(r, "input_sequence_length", "tokens", ok, o -> List.of((double) o.promptLen()));
    record(r, "output_sequence_length", "tokens", ok, o -> List.of((double) o.outputLen()));
    long outTokens = ok.stream().mapToLong(BenchServing.Outcome::outputLen).sum();
    long failed = outcomes.size() - ok.size();
    r.putObject("request_throughput").put("unit", "requests/sec").put("avg", ok.size() / seconds);
    r.putObject("output_token_throughput").put("unit", "tokens/sec").put("avg", outTokens / seconds);
    // counts too are floats in the export (request_count 12.0)
    r.putObject("request_count").put("unit", "requests").put("avg", (double) ok.size());
    if (failed > 0) {
      // an error-only metric: absent from a run without errors
      r.putObject("error_request_count").put("unit", "requests").put("avg", (double) failed);
    }
    r.putObject("completed_request_count").put("unit", "requests").put("avg", (double) outcomes.size());
    r.putObject("benchmark_duration").put("unit", "sec").put("avg", seconds);
    return r;
  }

  /** {@code input_config}: the parts of AIPerf's configuration a synthetic run writes (models, endpoint, dataset, phase). */
  private void inputConfig(ObjectNode c) {
    c.putObject("models").putArray("items").addObject().put("name", opts.model());
    ObjectNode endpoint = c.putObject("endpoint");
    endpoint.putArray("urls").add(opts.url());
    endpoint.put("type", "chat").put("streaming", true);
    if (!opts.extraInputs().isEmpty()) {
      endpoint.set("extra", opts.extraInputs().deepCopy());
    }
    if (opts.inputFile() == null) {
      ObjectNode dataset = c.putArray("datasets").addObject();
      dataset.put("name", "main").put("type", "synthetic").put("entries", opts.requestCount()).put("random_seed", opts.seed());
      ObjectNode prompts = dataset.putObject("prompts");
      prompts.putObject("isl").put("mean", (double) opts.isl());
      prompts.putObject("osl").put("mean", (double) opts.osl());
    }
    ObjectNode phase = c.putArray("phases").addObject();
    phase.put("name", "profiling").put("kind", "profiling");
    if (opts.inputFile() == null && opts.durationSeconds() <= 0) {
      if (opts.requestRate() <= 0) {
        // the shape of a concurrency phase; a rate's phase type is a plugin name not mirrored here
        phase.put("type", "concurrency").put("requests", opts.requestCount()).put("concurrency", opts.concurrency());
      }
    }
    c.putObject("tokenizer").put("name", opts.tokenizer());
  }

  /**
   * AIPerf's {@code error_summary}: one {@code {"error_details": {code, type, message}, "count": N}}
   * per distinct error, most frequent first.
   */
  private static void errorSummary(ArrayNode summary, List<BenchServing.Outcome> outcomes) {
    Map<RequestFailure, Long> counts = new LinkedHashMap<>();
    outcomes.stream().filter(o -> !o.success()).forEach(o -> counts.merge(o.failure(), 1L, Long::sum));
    counts.entrySet().stream().sorted(Map.Entry.<RequestFailure, Long>comparingByValue().reversed()).forEach(e -> {
      ObjectNode entry = summary.addObject();
      errorDetails(entry.putObject("error_details"), e.getKey());
      entry.put("count", e.getValue());
    });
  }

  private static void errorDetails(ObjectNode d, RequestFailure f) {
    if (f.code() > 0) {
      d.put("code", f.code());
    } else {
      d.putNull("code");
    }
    d.put("type", f.type()).put("message", f.message());
  }

  private static void record(ObjectNode r, String tag, String unit, List<BenchServing.Outcome> ok,
      Function<BenchServing.Outcome, List<Double>> values) {
    List<Double> all = ok.stream().flatMap(o -> values.apply(o).stream()).toList();
    if (all.isEmpty()) {
      return;
    }
    BenchStats s = new BenchStats(all);
    ObjectNode m = r.putObject(tag);
    m.put("unit", unit).put("avg", s.mean()).put("min", s.percentile(0)).put("max", s.max());
    for (int p : new int[] {1, 5, 10, 25, 50, 75, 90, 95, 99}) {
      m.put("p" + p, s.percentile(p));
    }
    m.put("std", s.std()).put("count", s.count()).put("sum", all.stream().mapToDouble(Double::doubleValue).sum());
  }

  /**
   * One line of {@code <prefix>.jsonl} as AIPerf 0.13.0 writes it: {@code metadata} (its index,
   * ids, timestamps in ns, its phase: the warm-up is phase 0 when there is one, and has no
   * profiling index), {@code metrics} as {@code {value, unit}} (for a success TTFT, the gaps
   * between chunks, latency, time per output token, lengths as whole numbers; for a failure the
   * prompt length only) and, for a failure only, {@code error}.
   */
  static ObjectNode record(int index, Sent sent, Phase phase, boolean afterWarmup) {
    BenchServing.Outcome o = sent.outcome();
    ObjectNode rec = Json.object();
    ObjectNode meta = rec.putObject("metadata");
    String correlation = UUID.randomUUID().toString();
    meta.put("session_num", index).put("x_request_id", UUID.randomUUID().toString()).put("x_correlation_id", correlation)
        .put("conversation_id", String.format("session_%06d", index)).put("turn_index", 0).put("credit_issued_ns", sent.startNs())
        .put("request_start_ns", sent.startNs());
    if (o.success()) {
      meta.put("request_ack_ns", sent.startNs() + Math.round(o.ttft() * 1e9));
    }
    meta.put("request_end_ns", sent.startNs() + Math.round(o.latency() * 1e9)).put("worker_id", "worker_emulated")
        .put("record_processor_id", "record_processor_emulated").put("benchmark_phase", phase.wire)
        .put("phase_index", phase == Phase.PROFILING && afterWarmup ? 1 : 0);
    if (phase == Phase.PROFILING) {
      meta.put("profiling_index", 0);
    }
    meta.put("phase_name", phase.wire).put("phase_kind", phase.wire).put("was_cancelled", false).put("context_overflow_skip", false)
        .put("agent_depth", 0).put("root_correlation_id", correlation);
    ObjectNode m = rec.putObject("metrics");
    if (o.success()) {
      count(m, "input_sequence_length", o.promptLen());
      value(m, "time_to_first_token", o.ttft() * 1000, "ms");
      value(m, "request_latency", o.latency() * 1000, "ms");
      count(m, "output_token_count", o.outputLen());
      ObjectNode icl = m.putObject("inter_chunk_latency");
      ArrayNode gaps = icl.putArray("value");
      o.itls().forEach(g -> gaps.add(g * 1000));
      icl.put("unit", "ms");
      count(m, "output_sequence_length", o.outputLen());
      if (o.outputLen() > 1) {
        value(m, "inter_token_latency", (o.latency() - o.ttft()) / (o.outputLen() - 1) * 1000, "ms");
        if (o.latency() > o.ttft()) {
          value(m, "output_token_throughput_per_user", (o.outputLen() - 1) / (o.latency() - o.ttft()), "tokens/sec/user");
        }
      }
    } else {
      count(m, "error_isl", o.promptLen());
      errorDetails(rec.putObject("error"), o.failure());
    }
    return rec;
  }

  /** A token count: a whole number in AIPerf's records. */
  private static void count(ObjectNode metrics, String name, long value) {
    metrics.putObject(name).put("value", value).put("unit", "tokens");
  }

  private static void value(ObjectNode metrics, String name, double value, String unit) {
    metrics.putObject(name).put("value", value).put("unit", unit);
  }
}
