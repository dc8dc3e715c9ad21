package dev.srt.operator.config;

import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.SloSpec;
import dev.srt.operator.api.WorkloadSpec;
import dev.srt.operator.base.Mappers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of what a comparison measures and how its arms are judged: the load ladder
 * ({@code spec.workload.load}), the latency objective ({@code spec.slo}), the verdict metrics and
 * the equivalence margin ({@code spec.execution}). Each problem with its field path.
 */
public final class MeasurementRules {
  /** Flags of any tool that set the load a ladder sets per level. */
  static final List<String> LOAD_FLAGS = List.of("max-concurrency", "request-rate", "concurrency");
  /** bench_serving's request count, which requestsPerLevel (or rate × durationPerLevel) sets per level. */
  static final List<String> BENCH_SERVING_COUNT = List.of("num-prompts");
  /** AIPerf's request count (with its alias), set per level by requestsPerLevel; durationPerLevel stops on time instead. */
  static final List<String> AIPERF_COUNT = List.of("request-count", "num-requests");
  static final List<String> AIPERF_DURATION = List.of("benchmark-duration");
  /** The shortest level: shorter is no measurement of a steady state. */
  static final Duration MIN_LEVEL_DURATION = Duration.ofSeconds(1);
  /** The longest pause between levels: longer holds the GPUs idle for nothing. */
  static final Duration MAX_DRAIN = Duration.ofMinutes(10);
  /**
   * The longest an open-loop level may take to send its requests: a rate so low that a level sends
   * nothing in its duration, or takes years to send its count, would hold the GPUs for ever.
   */
  static final Duration MAX_LEVEL_SENDING = Duration.ofDays(1);
  /** Metrics that only exist with an SLO. */
  static final Set<String> SLO_METRICS = Set.of("goodput", "goodput_ratio");

  private MeasurementRules() {}

  public static List<Problem> check(RouterComparisonSpec spec) {
    List<Problem> out = new ArrayList<>();
    if (spec.workload != null && spec.workload.load != null) {
      load(out, spec.workload);
      if (out.stream().noneMatch(Problem::isError)) {
        withinMaxDuration(out, spec);
      }
    }
    if (spec.slo != null) {
      slo(out, spec.slo);
    }
    if (spec.execution != null) {
      execution(out, spec.execution, spec.slo != null);
    }
    return out;
  }

  private static void load(List<Problem> out, WorkloadSpec w) {
    LoadSpec load = w.load;
    String p = "spec.workload.load";
    boolean closed = LoadSpec.CONCURRENCY.equals(load.mode);
    // a value outside the set is OneOfRules' to report
    if (load.mode == null) {
      out.add(Problem.error(p + ".mode", "is required: concurrency (closed loop) or request-rate (open loop)"));
    }
    levels(out, p + ".levels", load.levels, closed, load.mode != null && !closed);
    if (load.requestsPerLevel != null && (load.requestsPerLevel < 1 || load.requestsPerLevel > LoadSpec.MAX_REQUESTS_PER_LEVEL)) {
      out.add(Problem.error(p + ".requestsPerLevel", "must be 1 to " + LoadSpec.MAX_REQUESTS_PER_LEVEL + ", not "
          + load.requestsPerLevel));
    }
    if (load.durationPerLevel != null) {
      String problem = Durations.problem(load.durationPerLevel);
      if (problem != null) {
        out.add(Problem.error(p + ".durationPerLevel", problem));
      } else if (Durations.parse(load.durationPerLevel, null).compareTo(MIN_LEVEL_DURATION) < 0) {
        out.add(Problem.error(p + ".durationPerLevel", "must be at least 1s, not " + Echo.value(load.durationPerLevel)));
      }
      if (load.requestsPerLevel != null) {
        out.add(Problem.error(p + ".durationPerLevel", "set requestsPerLevel or durationPerLevel, not both"));
      }
      if (benchServing(w) && closed) {
        out.add(Problem.error(p + ".durationPerLevel", "bench-serving stops after a number of requests, not after a time: "
            + "use requestsPerLevel (or mode: request-rate, which sends rate times duration requests)"));
      }
    }
    if (benchServing(w) && sharedPrefix(w) && (load.requestsPerLevel != null || load.durationPerLevel != null)) {
      out.add(Problem.error(p + (load.requestsPerLevel != null ? ".requestsPerLevel" : ".durationPerLevel"),
          "bench_serving's generated-shared-prefix dataset sends gsp-num-groups x gsp-prompts-per-group requests and ignores "
              + "--num-prompts: set those in spec.workload.args instead"));
    }
    if (load.drainBetweenLevels != null) {
      String problem = Durations.problem(load.drainBetweenLevels);
      if (problem != null) {
        out.add(Problem.error(p + ".drainBetweenLevels", problem));
      } else if (Durations.parse(load.drainBetweenLevels, null).compareTo(MAX_DRAIN) > 0) {
        out.add(Problem.error(p + ".drainBetweenLevels", "must be at most " + MAX_DRAIN.toMinutes() + "m, not "
            + Echo.value(load.drainBetweenLevels)));
      }
    }
    if (LoadSpec.REQUEST_RATE.equals(load.mode)) {
      openLoopLevelsEnd(out, p, load);
    }
    loadFlags(out, w);
  }

  /**
   * Every open-loop level ends (issue 41, finding 3): with durationPerLevel it sends at least one
   * request (rate × duration ≥ 1), and with requestsPerLevel it sends them within a day.
   */
  private static void openLoopLevelsEnd(List<Problem> out, String p, LoadSpec load) {
    Duration duration = load.durationPerLevel == null || Durations.problem(load.durationPerLevel) != null ? null
        : Durations.parse(load.durationPerLevel, null);
    for (int i = 0; load.levels != null && i < load.levels.size(); i++) {
      Double rate = load.levels.get(i);
      if (rate == null || !Double.isFinite(rate) || rate <= 0) {
        continue; // levels() says so
      }
      String at = FieldPath.index(p + ".levels", i);
      if (duration != null && rate * duration.toMillis() / 1000.0 < 1) {
        out.add(Problem.error(at, "at " + LoadSpec.text(rate) + " requests per second a level of " + Echo.value(load.durationPerLevel)
            + " sends no request (rate x durationPerLevel = " + String.format(java.util.Locale.ROOT, "%.3g", rate * duration.toMillis() / 1000.0)
            + "); a level must send at least one"));
      } else if (duration == null && load.requestsPerLevel != null && load.requestsPerLevel / rate > MAX_LEVEL_SENDING.toSeconds()) {
        out.add(Problem.error(at, "at " + LoadSpec.text(rate) + " requests per second, " + load.requestsPerLevel + " requests take "
            + Durations.describe(load.requestsPerLevel / rate) + " to send; a level may take at most "
            + MAX_LEVEL_SENDING.toHours() + "h: raise the rate or send fewer requests"));
      }
    }
  }

  /**
   * The levels of a run fit in {@code spec.execution.maxDuration} (issue 41, finding 3): a run
   * whose known benchmark time is longer would be stopped at it, its last levels never measured.
   * Checked only on a ladder without other problems, whose estimate is then sound.
   */
  private static void withinMaxDuration(List<Problem> out, RouterComparisonSpec spec) {
    String max = spec.execution == null ? null : spec.execution.maxDuration;
    if (max != null && (!Durations.isValid(max) || Durations.parse(max, null).compareTo(BenchmarkTime.MIN_MAX) < 0)) {
      return; // ExecutionRules says so
    }
    BenchmarkTime time = BenchmarkTime.of(spec);
    if (time.exceedsMax()) {
      out.add(Problem.error("spec.workload.load", "the benchmarking of one run is expected to take "
          + BenchmarkTime.text(time.perRunSeconds().getAsLong()) + " (its levels and the pauses between them), more than "
          + "spec.execution.maxDuration (" + time.maxText() + (max == null ? ", the default" : "") + "): measure fewer or shorter "
          + "levels, or raise spec.execution.maxDuration (at most " + Durations.MAX_TEXT + ")"));
    }
  }

  private static void levels(List<Problem> out, String p, List<Double> levels, boolean closed, boolean open) {
    if (levels == null || levels.isEmpty()) {
      out.add(Problem.error(p, "needs at least one level"));
      return;
    }
    if (levels.size() > LoadSpec.MAX_LEVELS) {
      out.add(Problem.error(p, "has " + levels.size() + " levels; at most " + LoadSpec.MAX_LEVELS));
    }
    Double previous = null;
    for (int i = 0; i < levels.size(); i++) {
      Double level = levels.get(i);
      String at = FieldPath.index(p, i);
      if (level == null || !Double.isFinite(level) || level <= 0) {
        out.add(Problem.error(at, "must be a number above 0"));
        continue;
      }
      if (closed && (level != Math.rint(level) || level > LoadSpec.MAX_CONCURRENCY)) {
        out.add(Problem.error(at, "must be a whole number of requests in flight, 1 to " + LoadSpec.MAX_CONCURRENCY + ", not "
            + LoadSpec.text(level)));
      } else if (open && level > LoadSpec.MAX_REQUEST_RATE) {
        out.add(Problem.error(at, "must be at most " + LoadSpec.MAX_REQUEST_RATE + " requests per second, not " + LoadSpec.text(level)));
      }
      if (previous != null && level <= previous) {
        out.add(Problem.error(at, "must be larger than the level before it (" + LoadSpec.text(previous) + "): levels ascend"));
      }
      previous = level;
    }
  }

  /** A flag of workload.args that sets what the ladder sets per level would measure another load than the one reported. */
  private static void loadFlags(List<Problem> out, WorkloadSpec w) {
    if (w.args == null) {
      return;
    }
    LoadSpec load = w.load;
    List<String> owned = new ArrayList<>(LOAD_FLAGS);
    boolean aiperf = "aiperf".equals(w.tool);
    if (load.requestsPerLevel != null || (load.durationPerLevel != null && !aiperf)) {
      owned.addAll(aiperf ? AIPERF_COUNT : BENCH_SERVING_COUNT);
    }
    if (aiperf && load.durationPerLevel != null) {
      owned.addAll(AIPERF_COUNT);
      owned.addAll(AIPERF_DURATION);
    }
    for (String key : w.args.keySet()) {
      String flag = meant(w, key.replace('_', '-'), owned);
      if (flag != null) {
        out.add(Problem.error(FieldPath.field("spec.workload.args", key), "--" + flag + " sets the load, which spec.workload.load "
            + "sets per level: remove it (open and closed loop never mix in one comparison)"));
      }
    }
  }

  /**
   * The owned flag that {@code key} sets, or null: the flag itself, or for bench_serving (argparse)
   * an unambiguous prefix of it, which argparse takes for the flag.
   */
  private static String meant(WorkloadSpec w, String key, List<String> owned) {
    if (owned.contains(key)) {
      return key;
    }
    if (!benchServing(w) || key.isEmpty()) {
      return null;
    }
    List<String> matches = FlagVocabulary.flags(FlagVocabulary.BENCH_SERVING).stream().filter(f -> f.startsWith("--" + key)).toList();
    return matches.size() == 1 && owned.contains(matches.get(0).substring(2)) ? matches.get(0).substring(2) : null;
  }

  private static boolean sharedPrefix(WorkloadSpec w) {
    Object dataset = w.args == null ? null : w.args.get("dataset-name");
    return "generated-shared-prefix".equals(dataset == null ? null : dataset.toString());
  }

  private static boolean benchServing(WorkloadSpec w) {
    return w.tool == null || "bench-serving".equals(w.tool);
  }

  private static void slo(List<Problem> out, SloSpec slo) {
    String p = "spec.slo";
    if (slo.ttftMs == null && slo.itlMs == null && slo.tpotMs == null && slo.e2eMs == null) {
      out.add(Problem.error(p, "sets no threshold: set at least one of ttftMs, itlMs, tpotMs, e2eMs"));
    }
    threshold(out, p + ".ttftMs", slo.ttftMs);
    threshold(out, p + ".itlMs", slo.itlMs);
    threshold(out, p + ".tpotMs", slo.tpotMs);
    threshold(out, p + ".e2eMs", slo.e2eMs);
    if (slo.attainment != null && !(slo.attainment > 0 && slo.attainment <= 1)) {
      out.add(Problem.error(p + ".attainment", "must be above 0 and at most 1 (0.99 = 99% of requests), not " + slo.attainment));
    }
  }

  private static void threshold(List<Problem> out, String p, Double ms) {
    if (ms != null && !(ms > 0 && ms <= SloSpec.MAX_MS)) {
      out.add(Problem.error(p, "must be above 0 and at most " + SloSpec.MAX_MS + " ms, not " + ms));
    }
  }

  private static void execution(List<Problem> out, ExecutionSpec e, boolean slo) {
    if (e.equivalenceMargin != null && !(e.equivalenceMargin > 0 && e.equivalenceMargin <= 1)) {
      out.add(Problem.error("spec.execution.equivalenceMargin", "must be above 0 and at most 1 (0.02 = 2%), not " + e.equivalenceMargin));
    }
    if (e.verdictMetrics == null) {
      return;
    }
    String p = "spec.execution.verdictMetrics";
    if (e.verdictMetrics.size() > ExecutionSpec.MAX_VERDICT_METRICS) {
      out.add(Problem.error(p, "has " + e.verdictMetrics.size() + " metrics; at most " + ExecutionSpec.MAX_VERDICT_METRICS));
    }
    Set<String> known = judged();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < e.verdictMetrics.size(); i++) {
      String m = e.verdictMetrics.get(i);
      String at = FieldPath.index(p, i);
      if (m == null || !known.contains(m)) {
        out.add(Problem.error(at, "is not a metric a verdict is given on: " + Echo.value(m) + " (one of " + String.join(", ", known)
            + "; capacity is judged whenever spec.workload.load and spec.slo are set)"));
      } else if (!seen.add(m)) {
        out.add(Problem.error(at, Echo.value(m) + " is listed twice"));
      } else if (SLO_METRICS.contains(m) && !slo) {
        out.add(Problem.error(at, m + " needs spec.slo (the latency objective a good request meets)"));
      }
    }
  }

  /** The results' metric names (their JSON names, in order) but the counts. */
  static Set<String> judged() {
    var type = Mappers.json().constructType(BenchmarkResults.class);
    Set<String> out = new LinkedHashSet<>();
    Mappers.json().getSerializationConfig().introspect(type).findProperties().forEach(p -> out.add(p.getName()));
    out.removeAll(BenchmarkResults.NOT_JUDGED);
    return out;
  }
}
