package dev.srt.operator.config;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The semantic rules of both kinds, all problems at once, each with its field path: the entry
 * point to {@link ComparisonRules}, {@link MeasurementRules}, {@link ClusterRules} and the router kinds'
 * {@link FrontendRules}.
 * The same rules are CEL {@code x-kubernetes-validations} on the CRDs where CEL can express them;
 * they also run in the operator because not every API server (nor the test mock) enforces CEL, and
 * some need both resources (does the topology fit the cluster?).
 */
public final class Validator {
  /**
   * sglang.launch_server flags srt-operator sets itself; the disaggregation mode and bootstrap port
   * come from the prefill/decode topology.
   */
  public static final Set<String> MANAGED_ENGINE_ARGS =
      Set.of("model-path", "served-model-name", "host", "port", "nccl-port", "kv-events-config", "grpc-port",
          "nnodes", "node-rank", "dist-init-addr", "disaggregation-mode", "disaggregation-bootstrap-port");
  /** Dynamo's SGLang sidecar flags srt-operator sets itself (the engine's gRPC endpoint). */
  public static final Set<String> MANAGED_DYNAMO_SIDECAR_ARGS = Set.of("grpc-endpoint");
  public static final Set<String> MANAGED_BENCH_SERVING_ARGS =
      Set.of("base-url", "host", "port", "model", "seed", "output-file");
  public static final Set<String> MANAGED_AIPERF_ARGS =
      Set.of("url", "model", "model-names", "random-seed", "output-artifact-dir", "artifact-dir");

  public static final int DEFAULT_GPUS_PER_NODE = 8;

  private Validator() {}

  /** Rules of a comparison; {@code cluster} may be null when it is not known (no fit checks). */
  public static List<Problem> validate(RouterComparison rc, GpuCluster cluster) {
    return validate(rc, cluster, null);
  }

  /**
   * As {@link #validate(RouterComparison, GpuCluster)}, for running in {@code mode} instead of the
   * cluster's own mode when it is not null.
   */
  public static List<Problem> validate(RouterComparison rc, GpuCluster cluster, Mode mode) {
    List<Problem> out = new ArrayList<>(ComparisonRules.check(rc, cluster, mode));
    if (rc.getSpec() != null) {
      out.addAll(MeasurementRules.check(rc.getSpec()));
    }
    // The script bound renders the arms, last: only a spec that breaks no other rule can be
    // planned, and a spec already refused (10,000 load levels) would add a misleading "script too
    // large" to the error that names the cause (issue 41, finding 9).
    if (out.stream().noneMatch(Problem::isError)) {
      ScriptSizeRules.check(out, rc, cluster, ComparisonRules.effectiveMode(cluster, mode));
    }
    return out;
  }

  /** Rules of a cluster. */
  public static List<Problem> validate(GpuCluster cluster) {
    List<Problem> out = new ArrayList<>(cluster.getSpec() == null ? List.of() : OneOfRules.check(cluster.getSpec(), "spec"));
    out.addAll(ClusterRules.check(cluster));
    return out;
  }

  /** GPUs per node of the cluster, or the documented default when no cluster is known. */
  public static int gpusPerNode(GpuCluster cluster) {
    return cluster == null || cluster.getSpec() == null || cluster.getSpec().gpusPerNode == null
        ? DEFAULT_GPUS_PER_NODE
        : cluster.getSpec().gpusPerNode;
  }
}
