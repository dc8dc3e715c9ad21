package dev.srt.operator.render;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mode;
import dev.srt.operator.config.ScriptSizes;
import dev.srt.operator.plan.Planner;
import java.util.Optional;

/** The renderer's measure of an arm's script, for the validator ({@link ScriptSizes}). */
public final class ScriptSizeMeter implements ScriptSizes {
  @Override
  public Optional<Long> bytes(RouterComparison rc, GpuCluster cluster, String arm, String mode, long limit) {
    try {
      return Optional.of(Scripts.bytes(Planner.plan(rc, cluster, arm, Mode.parse(mode)), limit));
    } catch (IllegalArgumentException | IllegalStateException e) {
      return Optional.empty(); // not plannable in this mode: the other rules say why
    }
  }
}
