package dev.srt.operator.config;

import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.List;

/**
 * The rules of {@code spec.execution}: how many runs per arm, in which order, warmed up how, and
 * which arm the others are judged against.
 */
final class ExecutionRules {
  private ExecutionRules() {}

  /** A duration of 1m to 168h: shorter would stop every benchmark before it measured anything. */
  private static void maxDuration(List<Problem> out, String text) {
    String p = "spec.execution.maxDuration";
    String problem = Durations.problem(text);
    if (problem != null) {
      out.add(Problem.error(p, problem));
    } else if (text != null && Durations.parse(text, null).compareTo(BenchmarkTime.MIN_MAX) < 0) {
      out.add(Problem.error(p, "must be at least " + BenchmarkTime.MIN_MAX.toMinutes() + "m (it bounds the benchmarking of a run), not "
          + Echo.value(text)));
    }
  }

  static void check(List<Problem> out, RouterComparisonSpec spec) {
    ExecutionSpec e = spec.execution;
    if (e == null) {
      return;
    }
    if (e.repetitions != null && (e.repetitions < 1 || e.repetitions > ExecutionSpec.MAX_REPETITIONS)) {
      out.add(Problem.error("spec.execution.repetitions", "must be 1 to " + ExecutionSpec.MAX_REPETITIONS + ", not " + e.repetitions));
    }
    if (e.warmupRequests != null && (e.warmupRequests < 0 || e.warmupRequests > ExecutionSpec.MAX_WARMUP_REQUESTS)) {
      out.add(Problem.error("spec.execution.warmupRequests", "must be 0 to " + ExecutionSpec.MAX_WARMUP_REQUESTS + ", not "
          + e.warmupRequests));
    }
    if (e.maxFailedRatio != null && !(e.maxFailedRatio >= 0 && e.maxFailedRatio <= 1)) {
      out.add(Problem.error("spec.execution.maxFailedRatio", "must be 0 to 1, not " + e.maxFailedRatio));
    }
    maxDuration(out, e.maxDuration);
    if (e.baseline != null && spec.arms.stream().noneMatch(a -> e.baseline.equals(a.name))) {
      out.add(Problem.error("spec.execution.baseline", "names no arm: " + Echo.value(e.baseline) + " (arms: "
          + String.join(", ", spec.arms.stream().map(a -> a.name).toList()) + ")"));
    }
    if (e.warmupRequests != null && spec.workload != null) {
      String flag = "aiperf".equals(spec.workload.tool) ? "warmup-request-count" : "warmup-requests";
      if (spec.workload.args != null && spec.workload.args.keySet().stream().anyMatch(k -> k.replace('_', '-').equals(flag))) {
        out.add(Problem.error("spec.execution.warmupRequests", "spec.workload.args sets --" + flag + " too: set one of them"));
      }
    }
    if (!e.requireFactsOrDefault()) {
      out.add(Problem.warning("spec.execution.requireFacts", "is false: a verdict compares runs whose held-constant facts "
          + "differ, runs without facts and arms whose runs had different routers, and only warns of them"));
    }
    if (e.repetitions != null && e.repetitions == 1 && e.baseline != null) {
      out.add(Problem.warning("spec.execution.repetitions", "is 1: verdicts need at least 2 runs per arm, every one will be "
          + "not-comparable"));
    }
  }
}
