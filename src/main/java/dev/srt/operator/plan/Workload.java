package dev.srt.operator.plan;

import dev.srt.operator.api.WorkloadSpec;
import dev.srt.operator.config.Validator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The benchmark process: the same tool, arguments and seed in every arm, aimed at the router's
 * OpenAI chat endpoint (the one endpoint every router serves), writing into {@code results/}.
 */
public final class Workload {
  public static final String RESULTS_DIR = "results";
  /**
   * SGLang's benchmark client: {@code sglang.benchmark.serving} in current SGLang, where
   * {@code sglang.bench_serving} is a deprecated alias of it (the flag list
   * flags/sglang-bench-serving.txt is this module's).
   */
  public static final String BENCH_SERVING_MODULE = "sglang.benchmark.serving";
  public static final int DEFAULT_SEED = 42;
  /** AIPerf's --output-artifact-dir, in {@link #RESULTS_DIR}: the aiperf tool's and a custom command's. */
  public static final String AIPERF_ARTIFACT_DIR = RESULTS_DIR + "/aiperf";

  private Workload() {}

  public static ProcessSpec process(ArmContext ctx) {
    WorkloadSpec w = ctx.spec().workload;
    String tool = w.tool == null ? "bench-serving" : w.tool;
    int seed = w.seed == null ? DEFAULT_SEED : w.seed;
    // Warm-up requests go through the arm's router, as the measured ones, and are not counted.
    Integer warmup = ctx.spec().execution == null ? null : ctx.spec().execution.warmupRequests;
    Map<String, String> env = new LinkedHashMap<>();
    env.put("SRT_FRONTEND_URL", ctx.routerUrl());
    env.put("SRT_MODEL", ctx.servedModelName());
    env.put("SRT_RESULTS_DIR", RESULTS_DIR);
    env.put("SRT_SEED", String.valueOf(seed));
    if ("custom".equals(tool)) {
      // Where srtctl points a custom command's AIPerf artifacts, and where the results are read from.
      env.put("AIPERF_ARTIFACT_DIR", AIPERF_ARTIFACT_DIR);
    }
    env.putAll(new TreeMap<>(w.env == null ? Map.of() : w.env));
    List<String> argv = new ArrayList<>();
    switch (tool) {
      case "bench-serving" -> {
        argv.addAll(List.of(ctx.python(), "-m", BENCH_SERVING_MODULE));
        if (!Flags.has(w.args, "backend")) {
          argv.addAll(List.of("--backend", "sglang-oai-chat"));
        }
        argv.addAll(List.of("--base-url", ctx.routerUrl(), "--model", ctx.servedModelName()));
        if (!Flags.has(w.args, "tokenizer")) {
          argv.addAll(List.of("--tokenizer", ctx.modelPath()));
        }
        argv.addAll(List.of("--seed", String.valueOf(seed), "--output-file", RESULTS_DIR + "/bench-serving.jsonl"));
        if (!Flags.has(w.args, "output-details")) {
          // Its per-request errors are the only place bench_serving counts failed requests.
          argv.add("--output-details");
        }
        if (warmup != null) {
          argv.addAll(List.of("--warmup-requests", String.valueOf(warmup)));
        }
        argv.addAll(Flags.render(w.args, Validator.MANAGED_BENCH_SERVING_ARGS));
      }
      case "aiperf" -> {
        argv.addAll(List.of("aiperf", "profile", "--model", ctx.servedModelName(), "--url", ctx.routerUrl(),
            "--endpoint-type", "chat", "--streaming", "--random-seed", String.valueOf(seed),
            "--output-artifact-dir", AIPERF_ARTIFACT_DIR));
        if (!Flags.has(w.args, "tokenizer")) {
          argv.addAll(List.of("--tokenizer", ctx.modelPath()));
        }
        if (warmup != null) {
          argv.addAll(List.of("--warmup-request-count", String.valueOf(warmup)));
        }
        argv.addAll(Flags.render(w.args, Validator.MANAGED_AIPERF_ARGS));
      }
      default -> argv.addAll(List.of("bash", "-c", w.command));
    }
    return new ProcessSpec("benchmark", Role.BENCHMARK, 0, argv, env, Map.of(), null, "logs/benchmark.log", null, null, null);
  }
}
