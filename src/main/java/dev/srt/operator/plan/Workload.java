package dev.srt.operator.plan;

import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.WorkloadSpec;
import dev.srt.operator.config.Durations;
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

  /**
   * The benchmark processes of a run: one without a load ladder; with one, one per level in the
   * order they run, each aimed at its level's load and writing into its level's results directory.
   * Warm-up requests are sent once, before the first level: the engines stay loaded and warm.
   */
  public static List<ProcessSpec> processes(ArmContext ctx, Ladder ladder) {
    if (ladder == null) {
      return List.of(process(ctx, null, ladder));
    }
    return ladder.levels().stream().map(level -> process(ctx, level, ladder)).toList();
  }

  private static ProcessSpec process(ArmContext ctx, Ladder.Level level, Ladder ladder) {
    WorkloadSpec w = ctx.spec().workload;
    String tool = w.tool == null ? "bench-serving" : w.tool;
    // Each level sends prompts of its own (the same in every arm): a level that re-sent the prompts
    // of the one before would find their prefixes cached by it, and measure the cache, not the router.
    int seed = (w.seed == null ? DEFAULT_SEED : w.seed) + (level == null ? 0 : level.index() - 1);
    String results = level == null ? RESULTS_DIR : level.resultsDir();
    // Warm-up requests go through the arm's router, as the measured ones, and are not counted.
    Integer warmup = ctx.spec().execution == null ? null : ctx.spec().execution.warmupRequests;
    boolean warm = level != null && level.index() > 1;
    Map<String, String> env = new LinkedHashMap<>();
    env.put("SRT_FRONTEND_URL", ctx.routerUrl());
    env.put("SRT_MODEL", ctx.servedModelName());
    env.put("SRT_RESULTS_DIR", results);
    env.put("SRT_SEED", String.valueOf(seed));
    if ("custom".equals(tool)) {
      // Where srtctl points a custom command's AIPerf artifacts, and where the results are read from.
      env.put("AIPERF_ARTIFACT_DIR", results + "/aiperf");
      if (level != null) {
        // A custom command sets its load from these.
        env.put("SRT_LOAD_MODE", ladder.mode());
        env.put("SRT_LOAD", LoadSpec.text(level.load()));
        env.put("SRT_LEVEL", String.valueOf(level.index()));
        LoadSpec load = w.load;
        if (load.requestsPerLevel != null) {
          env.put("SRT_REQUESTS_PER_LEVEL", String.valueOf(load.requestsPerLevel));
        }
        if (load.durationPerLevel != null) {
          env.put("SRT_SECONDS_PER_LEVEL", String.valueOf(Durations.parse(load.durationPerLevel, null).toSeconds()));
        }
      }
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
        argv.addAll(List.of("--seed", String.valueOf(seed), "--output-file", results + "/bench-serving.jsonl"));
        if (!Flags.has(w.args, "output-details")) {
          // Its per-request errors are the only place bench_serving counts failed requests.
          argv.add("--output-details");
        }
        if (warm) {
          argv.addAll(List.of("--warmup-requests", "0"));
        } else if (warmup != null) {
          argv.addAll(List.of("--warmup-requests", String.valueOf(warmup)));
        }
        if (level != null) {
          benchServingLoad(argv, w.load, level);
        }
        argv.addAll(Flags.render(w.args, Validator.MANAGED_BENCH_SERVING_ARGS));
      }
      case "aiperf" -> {
        argv.addAll(List.of("aiperf", "profile", "--model", ctx.servedModelName(), "--url", ctx.routerUrl(),
            "--endpoint-type", "chat", "--streaming", "--random-seed", String.valueOf(seed),
            "--output-artifact-dir", results + "/aiperf"));
        if (!Flags.has(w.args, "tokenizer")) {
          argv.addAll(List.of("--tokenizer", ctx.modelPath()));
        }
        if (warmup != null && !warm) {
          argv.addAll(List.of("--warmup-request-count", String.valueOf(warmup)));
        }
        if (level != null) {
          aiperfLoad(argv, w.load, level);
        }
        argv.addAll(Flags.render(w.args, Validator.MANAGED_AIPERF_ARGS));
      }
      default -> argv.addAll(List.of("bash", "-c", w.command));
    }
    String name = level == null ? "benchmark" : "benchmark-level-" + level.index();
    return new ProcessSpec(name, Role.BENCHMARK, 0, argv, env, Map.of(), null, "logs/" + name + ".log", null, null, null);
  }

  /**
   * bench_serving at one level: closed loop by --max-concurrency (its --request-rate stays inf, so
   * a slot refills at once), open loop by --request-rate (Poisson arrivals); --num-prompts from
   * requestsPerLevel, or rate times durationPerLevel (validation allows a duration only open loop).
   */
  private static void benchServingLoad(List<String> argv, LoadSpec load, Ladder.Level level) {
    String value = LoadSpec.text(level.load());
    argv.addAll(List.of(load.closedLoop() ? "--max-concurrency" : "--request-rate", value));
    if (load.requestsPerLevel != null) {
      argv.addAll(List.of("--num-prompts", String.valueOf(load.requestsPerLevel)));
    } else if (load.durationPerLevel != null) {
      double seconds = Durations.parse(load.durationPerLevel, null).toMillis() / 1000.0;
      argv.addAll(List.of("--num-prompts", String.valueOf(Math.max(1, (long) Math.ceil(level.load() * seconds)))));
    }
  }

  /** AIPerf at one level: --concurrency or --request-rate; --request-count or --benchmark-duration (seconds). */
  private static void aiperfLoad(List<String> argv, LoadSpec load, Ladder.Level level) {
    argv.addAll(List.of(load.closedLoop() ? "--concurrency" : "--request-rate", LoadSpec.text(level.load())));
    if (load.requestsPerLevel != null) {
      argv.addAll(List.of("--request-count", String.valueOf(load.requestsPerLevel)));
    } else if (load.durationPerLevel != null) {
      argv.addAll(List.of("--benchmark-duration", String.valueOf(Durations.parse(load.durationPerLevel, null).toSeconds())));
    }
  }
}
