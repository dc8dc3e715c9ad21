package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.QUIET;
import static dev.srt.operator.emulator.EmulatedFleet.url;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Percentiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the emulated engines saturate: two workers (TP4, page size 64, KV events) behind the emulated
 * sgl-router with each policy, warmed up once, then bench_serving at each concurrency of a ladder
 * over the scaled shared-prefix workload of the examples, as one run of a load ladder measures it.
 * Prints per level the throughput, TTFT and ITL, and the share of requests within a TTFT objective.
 * Not a test: run by hand when the latency model changes (docs/emulator.md quotes its output):
 *
 * <pre>mvn -q exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.srt.operator.emulator.LadderCalibration -Dexec.args="4 8 16 32 64"</pre>
 */
public final class LadderCalibration {
  /** The TTFT objective the goodput share is given against, in ms. */
  static final double TTFT_SLO_MS = 500;

  private LadderCalibration() {}

  public static void main(String[] args) throws Exception {
    List<Integer> levels = new ArrayList<>();
    for (String a : args.length == 0 ? new String[] {"4", "8", "16", "32", "64"} : args) {
      levels.add(Integer.parseInt(a));
    }
    boolean sameSeed = Boolean.getBoolean("sameSeed");
    for (String policy : List.of("cache_aware", "round_robin")) {
      System.out.printf(Locale.ROOT, "%s (ladder %s, %s):%n", policy, levels, sameSeed ? "the same prompts at every level" : "new prompts per level");
      System.out.printf(Locale.ROOT, "  %6s %8s %10s %10s %9s %9s %8s%n", "c", "req/s", "meanTTFT", "p99TTFT", "p99ITL", "TTFT<=" + (int) TTFT_SLO_MS, "secs");
      try (EmulatedFleet fleet = new EmulatedFleet()) {
        Map<String, String> env = Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0");
        SglangWorker a = fleet.worker(env, "--page-size", "64", "--tp-size", "4");
        SglangWorker b = fleet.worker(env, "--page-size", "64", "--tp-size", "4");
        SglRouter router = fleet.start(new SglRouter(SglRouter.Options.parse(List.of("--worker-urls", url(a), url(b), "--port", "0",
            "--model-id", MODEL, "--policy", policy), QUIET)));
        String base = "http://127.0.0.1:" + router.port();
        while (!(a.isReady() && b.isReady()) || HttpTestClient.get(base + "/readyz").status() != 200) {
          Thread.sleep(50);
        }
        Thread.sleep(500);
        for (int i = 0; i < levels.size(); i++) {
          int c = levels.get(i);
          Path out = Files.createTempFile("ladder", ".jsonl");
          long start = System.nanoTime();
          BenchServing.Options opts = BenchServing.Options.parse(List.of("--backend", "sglang-oai-chat", "--base-url", base,
              "--model", MODEL, "--dataset-name", "generated-shared-prefix", "--max-concurrency", String.valueOf(c),
              "--seed", String.valueOf(sameSeed ? 42 : 42 + i), "--warmup-requests", i == 0 ? "32" : "0", "--output-details",
              "--output-file", out.toString()), Map.of(), QUIET);
          new BenchServing(opts, QUIET, QUIET).run();
          double secs = (System.nanoTime() - start) / 1e9;
          JsonNode r = Json.parse(Files.readAllLines(out).get(0));
          Files.delete(out);
          long good = 0;
          double[] ttfts = new double[r.path("ttfts").size()];
          for (int k = 0; k < ttfts.length; k++) {
            ttfts[k] = r.path("ttfts").get(k).asDouble() * 1000;
            good += r.path("errors").get(k).asText().isEmpty() && ttfts[k] <= TTFT_SLO_MS ? 1 : 0;
          }
          java.util.Arrays.sort(ttfts);
          System.out.printf(Locale.ROOT, "  %6d %8.2f %10.1f %10.1f %9.2f %8.1f%% %8.1f%n", c, r.path("request_throughput").asDouble(),
              r.path("mean_ttft_ms").asDouble(), Percentiles.of(ttfts, 99), r.path("p99_itl_ms").asDouble(),
              100.0 * good / ttfts.length, secs);
        }
      }
    }
  }
}
