package dev.srt.operator.render;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.Mode;
import dev.srt.operator.config.ScriptSizes;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.util.Optional;

/**
 * The renderer's measure of an arm's script, for the validator ({@link ScriptSizes}): a spec whose
 * cheap upper bound ({@link ScriptBound}, from the spec, then from its plan) is within the limit
 * fits; any other is rendered, counting.
 */
public final class ScriptSizeMeter implements ScriptSizes {
  @Override
  public Optional<Boolean> fits(RouterComparison rc, GpuCluster cluster, String arm, Mode mode, long limit) {
    if (ScriptBound.of(rc, cluster) <= limit) {
      return Optional.of(true);
    }
    RunPlan plan;
    try {
      plan = Planner.plan(rc, cluster, arm, mode);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return Optional.empty(); // not plannable in this mode: the other rules say why
    }
    return Optional.of(ScriptBound.of(plan) <= limit || Scripts.bytes(plan, limit) <= limit);
  }
}
