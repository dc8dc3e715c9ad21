package dev.srt.operator.config;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.List;
import java.util.Map;

/**
 * A warning when the engine's tensor x pipeline parallel degrees do not use exactly the GPUs each
 * worker is given: the engine would leave GPUs idle (or not start), and the comparison would
 * measure less hardware than it reports. Data parallelism (with its attention variants) is left
 * to the user.
 */
final class ParallelismRules {
  /** The engine flags that name its parallel degrees, each with its aliases (SGLang's spellings). */
  private static final List<String> TENSOR_PARALLEL = List.of("tensor-parallel-size", "tp-size");
  private static final List<String> PIPELINE_PARALLEL = List.of("pipeline-parallel-size", "pp-size");
  private static final List<String> DATA_PARALLEL = List.of("data-parallel-size", "dp-size");

  private ParallelismRules() {}

  static void check(List<Problem> out, RouterComparisonSpec spec, GpuCluster cluster) {
    ResourcesSpec r = spec.resources;
    if (spec.backend == null || Validator.gpusPerNode(cluster) < 1) {
      return;
    }
    Map<String, Object> args = spec.backend.args == null ? Map.of() : spec.backend.args;
    if (!r.disaggregated()) {
      if (r.aggWorkers == null || r.aggWorkers < 1 || (r.aggNodes != null && r.aggNodes < 1)) {
        return;
      }
      parallelism(out, args, Map.of(), "spec.backend.args", WorkerFit.of(r, Validator.gpusPerNode(cluster)).gpusPerWorker(), "each worker");
      return;
    }
    if (r.prefillWorkers == null || r.decodeWorkers == null || r.prefillWorkers < 1 || r.decodeWorkers < 1
        || (r.prefillNodes != null && r.prefillNodes < 1) || (r.decodeNodes != null && r.decodeNodes < 1)) {
      return;
    }
    DisaggregatedFit fit = DisaggregatedFit.of(r, Validator.gpusPerNode(cluster));
    parallelism(out, args, spec.backend.prefillArgs, "spec.backend.prefillArgs", fit.prefill().gpusPerWorker(), "each prefill worker");
    parallelism(out, args, spec.backend.decodeArgs, "spec.backend.decodeArgs", fit.decode().gpusPerWorker(), "each decode worker");
  }

  /**
   * The warning for one role, whose engines run with {@code roleArgs} (at {@code rolePath}) over
   * the shared {@code args}, on {@code perWorker} GPUs each.
   */
  private static void parallelism(List<Problem> out, Map<String, Object> args, Map<String, Object> roleArgs, String rolePath,
      long perWorker, String who) {
    Map<String, Object> role = roleArgs == null ? Map.of() : roleArgs;
    if (DATA_PARALLEL.stream().anyMatch(k -> argKey(args, k) != null || argKey(role, k) != null)) {
      return;
    }
    // A role's own tensor or pipeline degree replaces the shared one.
    String roleTp = firstKey(role, TENSOR_PARALLEL);
    String rolePp = firstKey(role, PIPELINE_PARALLEL);
    String tpKey = roleTp != null ? roleTp : firstKey(args, TENSOR_PARALLEL);
    String ppKey = rolePp != null ? rolePp : firstKey(args, PIPELINE_PARALLEL);
    Long tp = tpKey == null ? Long.valueOf(1) : positiveInt((roleTp != null ? role : args).get(tpKey));
    Long pp = ppKey == null ? Long.valueOf(1) : positiveInt((rolePp != null ? role : args).get(ppKey));
    if (tp == null || pp == null || perWorker < 1 || tp * pp == perWorker) {
      return;
    }
    String key = tpKey != null ? tpKey : ppKey;
    String base = (tpKey != null ? roleTp != null : rolePp != null) ? rolePath : "spec.backend.args";
    out.add(Problem.warning(key == null ? base : FieldPath.field(base, key),
        "tensor x pipeline parallel = " + tp + " x " + pp + " = " + (tp * pp) + " GPUs, but " + who + " is given " + perWorker
            + " (spec.resources): the engine would " + (tp * pp < perWorker ? "leave GPUs idle" : "need more GPUs than it has")));
  }

  private static String firstKey(Map<String, Object> args, List<String> aliases) {
    return aliases.stream().map(k -> argKey(args, k)).filter(java.util.Objects::nonNull).findFirst().orElse(null);
  }

  /** The key of {@code flag} in {@code args} as written ({@code _} or {@code -}), or null. */
  private static String argKey(Map<String, Object> args, String flag) {
    return args.keySet().stream().filter(k -> k.replace('_', '-').equals(flag)).findFirst().orElse(null);
  }

  private static Long positiveInt(Object value) {
    try {
      long n = Integer.parseInt(String.valueOf(value).trim());
      return n >= 1 ? n : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
