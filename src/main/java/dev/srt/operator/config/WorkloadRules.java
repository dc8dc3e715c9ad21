package dev.srt.operator.config;

import dev.srt.operator.api.WorkloadSpec;
import java.util.List;

/** The rules of {@code spec.workload}: the benchmark tool, its flags, command and environment. */
final class WorkloadRules {
  private WorkloadRules() {}

  static void check(List<Problem> out, WorkloadSpec w) {
    if (w == null) {
      out.add(Problem.error("spec.workload", "is required"));
      return;
    }
    String tool = w.tool == null ? "bench-serving" : w.tool;
    if ("custom".equals(tool) && Rules.blank(w.command)) {
      out.add(Problem.error("spec.workload.command", "workload.tool: custom needs command"));
    }
    if (!"custom".equals(tool) && w.command != null) {
      out.add(Problem.error("spec.workload.command", "command is only used with tool: custom"));
    }
    Rules.flags(out, "spec.workload.args", w.args);
    Rules.env(out, "spec.workload.env", w.env);
    if ("bench-serving".equals(tool)) {
      FlagVocabulary.check(out, FlagVocabulary.BENCH_SERVING, "spec.workload.args", w.args, Validator.MANAGED_BENCH_SERVING_ARGS,
          "for bench-serving");
    } else if ("aiperf".equals(tool)) {
      FlagVocabulary.check(out, FlagVocabulary.AIPERF, "spec.workload.args", w.args, Validator.MANAGED_AIPERF_ARGS, "for aiperf");
    }
  }
}
