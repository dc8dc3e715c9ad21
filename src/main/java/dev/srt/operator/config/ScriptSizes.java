package dev.srt.operator.config;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The size of an arm's rendered script, as the renderer measures it (by rendering and counting,
 * keeping nothing). A service, as {@link FrontendRules} are, so that the validator stays above the
 * planner and the renderer while measuring exactly what they produce.
 */
public interface ScriptSizes {
  /**
   * Whether {@code arm}'s script in {@code mode} is at most {@code limit}
   * bytes, exactly as the renderer would find; empty when the arm cannot be planned in that mode
   * (the rules say why).
   */
  Optional<Boolean> fits(RouterComparison rc, GpuCluster cluster, String arm, Mode mode, long limit);

  /** The renderer's, when it is on the class path. */
  static Optional<ScriptSizes> installed() {
    return Holder.INSTALLED;
  }

  /** Loaded once. */
  final class Holder {
    static final Optional<ScriptSizes> INSTALLED = ServiceLoader.load(ScriptSizes.class, ScriptSizes.class.getClassLoader()).findFirst();

    private Holder() {}
  }
}
