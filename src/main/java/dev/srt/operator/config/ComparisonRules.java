package dev.srt.operator.config;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The rules of a RouterComparison, all problems at once, each with its field path; with its
 * GpuCluster when known (does the topology fit?). One class per area of the spec does the work:
 * {@link TopologyRules} and {@link ParallelismRules} (spec.resources), {@link EngineRules}
 * (spec.backend), {@link DynamoRules}, {@link WorkloadRules}, {@link ExecutionRules},
 * {@link ArmRules} (and each router kind's {@link FrontendRules}), the shared ones
 * ({@link BoundsRules}, {@link SecretEnvRules}, {@link InfraRules}, {@link ShellSafetyRules}).
 */
final class ComparisonRules {
  private ComparisonRules() {}

  /**
   * The rules of {@code rc}, with {@code cluster} when it is known (may be null), for running in
   * {@code mode} instead of the cluster's own mode when it is not null.
   */
  static List<Problem> check(RouterComparison rc, GpuCluster cluster, Mode mode) {
    List<Problem> out = new ArrayList<>();
    String name = rc.getMetadata() == null ? null : rc.getMetadata().getName();
    if (name == null || name.isBlank()) {
      out.add(Problem.error("metadata.name", "is required"));
    } else if (!Rules.DNS_LABEL.matcher(name).matches() || name.length() > 63) {
      out.add(Problem.error("metadata.name", "must be a DNS label (lower-case letters, digits, '-'; at most 63 characters): it names jobs and run directories"));
    }
    RouterComparisonSpec spec = rc.getSpec();
    if (spec == null) {
      out.add(Problem.error("spec", "is required"));
      return out;
    }
    // Closed sets first: the rules below (and the script bound, which plans) expect known values.
    out.addAll(OneOfRules.check(spec, "spec"));
    out.addAll(BoundsRules.check(spec, cluster));
    if (spec.clusterRef == null || Rules.blank(spec.clusterRef.name)) {
      out.add(Problem.error("spec.clusterRef.name", "is required"));
    }
    if (spec.model == null) {
      out.add(Problem.error("spec.model", "is required"));
    } else {
      Rules.requireAbsolute(out, "spec.model.path", spec.model.path, true);
      Rules.requireAbsolute(out, "spec.model.tokenizerPath", spec.model.tokenizerPath, false);
    }
    boolean disaggregated = spec.resources != null && spec.resources.disaggregated();
    if (spec.resources == null) {
      out.add(Problem.error("spec.resources", "is required"));
    } else {
      TopologyRules.check(out, spec.resources, cluster);
      ParallelismRules.check(out, spec, cluster);
    }
    EngineRules.check(out, spec.backend, disaggregated);
    DynamoRules.check(out, spec.dynamo, spec);
    if (spec.healthCheck != null) {
      Rules.duration(out, "spec.healthCheck.timeout", spec.healthCheck.timeout);
      Rules.duration(out, "spec.healthCheck.interval", spec.healthCheck.interval);
    }
    WorkloadRules.check(out, spec.workload);
    ExecutionRules.check(out, spec);
    ArmRules.check(out, spec, disaggregated);
    SecretEnvRules.comparison(out, spec, cluster);
    if (cluster != null && spec.clusterRef != null && spec.clusterRef.name != null
        && cluster.getMetadata() != null && !spec.clusterRef.name.equals(cluster.getMetadata().getName())) {
      out.add(Problem.warning("spec.clusterRef.name",
          "names " + Echo.value(spec.clusterRef.name) + " but the cluster in use is " + Echo.value(cluster.getMetadata().getName())));
    }
    Mode effectiveMode = effectiveMode(cluster, mode);
    if (effectiveMode == Mode.DIRECT && spec.resources != null && TopologyRules.nodes(spec.resources) > 1) {
      out.add(Problem.error("spec.resources", "a direct-mode cluster is one host: the topology needs " + TopologyRules.nodes(spec.resources) + " nodes"));
    }
    if (effectiveMode == Mode.DIRECT) {
      ArmRules.directHostRouters(out, spec);
    }
    InfraRules.comparison(out, spec, cluster);
    out.addAll(ShellSafetyRules.check(rc));
    // A rule about the shared spec runs once per arm that triggers it; report each problem once.
    return new ArrayList<>(new LinkedHashSet<>(out));
  }

  /** The mode the arms run in: {@code mode} when given, else the cluster's; null when neither is known. */
  static Mode effectiveMode(GpuCluster cluster, Mode mode) {
    return mode != null ? mode : cluster == null || cluster.getSpec() == null ? null : cluster.getSpec().mode();
  }
}
