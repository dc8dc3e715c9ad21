package dev.srt.operator.config;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.Limits;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.List;
import java.util.Optional;

/**
 * What a spec can make the operator hold: each arm's rendered script is at most
 * {@link Limits#MAX_SCRIPT_BYTES}. A spec within every other bound can still exceed it, as values
 * written once per worker process (engine flags and environment, sidecar arguments, the cluster's
 * srun options and container mounts) are multiplied by the topology. The script is measured by
 * rendering it ({@link ScriptSizes}), so {@code validate} refuses exactly the specs {@code render}
 * would; it runs only on a spec that breaks no other rule, which the planner needs.
 */
final class ScriptSizeRules {
  private ScriptSizeRules() {}

  /** {@code mode}: the mode the arms run in, or null for both. */
  static void check(List<Problem> out, RouterComparison rc, GpuCluster cluster, Mode mode) {
    RouterComparisonSpec spec = rc.getSpec();
    Optional<ScriptSizes> sizes = ScriptSizes.installed();
    if (sizes.isEmpty() || spec == null || spec.arms == null) {
      return;
    }
    for (int i = 0; i < spec.arms.size(); i++) {
      String arm = spec.arms.get(i).name;
      for (Mode m : mode == null ? List.of(Mode.values()) : List.of(mode)) {
        if (sizes.get().fits(rc, cluster, arm, m, Limits.MAX_SCRIPT_BYTES).orElse(true).equals(false)) {
          long workers = spec.resources == null ? 1 : WorkerFit.totalWorkers(spec.resources);
          out.add(Problem.error(FieldPath.index("spec.arms", i), "its " + m.id() + " script would be more than " + Limits.MAX_SCRIPT_BYTES
              + " bytes (" + (Limits.MAX_SCRIPT_BYTES >> 20) + " MiB), which the operator does not render: what is written once per "
              + "worker process (spec.backend.args and env, sidecar args, the GpuCluster's srunOptions, env and container mounts) "
              + "is too large for " + workers + " workers; make those values smaller or use fewer workers"));
          break;
        }
      }
    }
  }
}
