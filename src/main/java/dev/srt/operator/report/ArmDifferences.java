package dev.srt.operator.report;

import dev.srt.operator.plan.ArmDiff;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The arms' plans and their {@link ArmDiff}, as {@code srt-operator diff} shows them. A report is
 * also read long after the runs, from a spec that may no longer plan (e.g. a cluster that changed):
 * then the report says why instead of failing.
 */
record ArmDifferences(Map<String, RunPlan> plans, ArmDiff.Result diff, String problem) {
  static ArmDifferences of(ReportContext ctx) {
    Map<String, RunPlan> plans = new LinkedHashMap<>();
    try {
      ctx.comparison().getSpec().arms.forEach(a -> plans.put(a.name, Planner.plan(ctx.comparison(), ctx.cluster(), a.name, null)));
      return new ArmDifferences(plans, ArmDiff.of(ctx.comparison(), plans), null);
    } catch (RuntimeException e) {
      return new ArmDifferences(Map.of(), null, "the arms could not be planned from this spec: " + e.getMessage());
    }
  }

  /** The first arm's plan (the parts that are held constant are the same in all), or null. */
  RunPlan anyPlan() {
    return plans.isEmpty() ? null : plans.values().iterator().next();
  }
}
