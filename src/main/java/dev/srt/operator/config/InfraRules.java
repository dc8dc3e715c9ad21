package dev.srt.operator.config;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.InfraSpec;
import dev.srt.operator.api.Limits;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules of a GpuCluster's {@code spec.infra} (Dynamo's etcd and NATS), and of its ports
 * against the port table of a comparison that runs there: two services of one node must never
 * be given one port.
 */
final class InfraRules {
  /** A name on PATH or a path: it is argv[0] and, with a container, a bind mount (no ',' or ':'). */
  static final Pattern EXECUTABLE = Pattern.compile("[A-Za-z0-9._/+][A-Za-z0-9._/+-]*");

  private InfraRules() {}

  /** The cluster's own rules: executables that cannot be read as options, four distinct ports. */
  static void cluster(List<Problem> out, InfraSpec infra) {
    if (infra == null) {
      return;
    }
    executable(out, "spec.infra.etcd", infra.etcd);
    executable(out, "spec.infra.natsServer", infra.natsServer);
    Map<Integer, String> seen = new HashMap<>();
    infra.ports().forEach((field, port) -> {
      String p = "spec.infra." + field;
      if (port < Limits.MIN_PORT || port > Limits.MAX_PORT) {
        out.add(Problem.error(p, "must be between " + Limits.MIN_PORT + " and " + Limits.MAX_PORT));
      } else if (seen.containsKey(port)) {
        out.add(Problem.error(p, "port " + port + " is also spec.infra." + seen.get(port) + ": each service needs its own port"));
      } else {
        seen.put(port, field);
      }
    });
  }

  /**
   * The infra ports the comparison's Dynamo arms use on {@code cluster} (may be null: the
   * defaults) against the port table of its workers: etcd and NATS run on the first node, where
   * workers and the router bind theirs.
   */
  static void comparison(List<Problem> out, RouterComparisonSpec spec, GpuCluster cluster) {
    if (spec.dynamo == null || spec.resources == null || spec.arms == null
        || spec.arms.stream().noneMatch(a -> a != null && a.frontend != null && "dynamo".equals(a.frontend.type))) {
      return;
    }
    ResourcesSpec r = spec.resources;
    int gpusPerNode = Validator.gpusPerNode(cluster);
    long workers = r.aggWorkers == null ? 1 : r.aggWorkers;
    long nodes = r.aggNodes == null ? 1 : r.aggNodes;
    // Topologies beyond the bounds or not aggregated are reported (or planned) elsewhere.
    if (r.disaggregated() || r.aggWorkers == null || workers < 1 || workers > Limits.MAX_WORKERS || nodes < 1 || nodes > Limits.MAX_NODES
        || (r.gpusPerWorker != null && (r.gpusPerWorker < 1 || r.gpusPerWorker > Limits.MAX_GPUS_PER_WORKER))
        || gpusPerNode < 1 || gpusPerNode > Limits.MAX_GPUS_PER_NODE) {
      return;
    }
    long perNode = Math.min(workers, WorkerFit.of(r, gpusPerNode).workersPerNode());
    List<PortTable.Block> taken = new java.util.ArrayList<>(PortTable.fixed(workers, perNode));
    int sidecarBase = spec.dynamo.sidecarPort == null ? PortTable.SIDECAR_GRPC_BASE : spec.dynamo.sidecarPort;
    if (spec.arms.stream().anyMatch(InfraRules::hasSidecar)) {
      taken.add(PortTable.sidecar(sidecarBase, workers));
    }
    // Without a cluster (validate or plan of a comparison alone), the default ports are checked.
    InfraSpec infra = cluster == null || cluster.getSpec() == null ? new InfraSpec() : cluster.getSpec().infraOrDefault();
    String owner = cluster == null || cluster.getSpec() == null ? "the default GpuCluster"
        : "GpuCluster " + Echo.value(cluster.getMetadata() == null ? "" : cluster.getMetadata().getName());
    boolean etcd = "etcd".equals(spec.dynamo.discoveryOrDefault());
    for (PortTable.Block service : PortTable.infra(infra.ports(), etcd, spec.dynamo.usesNats())) {
      taken.stream().filter(service::overlaps).findFirst().ifPresent(other -> out.add(Problem.error("spec.dynamo",
          "the " + service.purpose() + " of " + owner + " is " + service.range() + ", inside the " + other.purpose() + " " + other.range()
              + " of this comparison's workers: move it in the GpuCluster's spec.infra")));
    }
  }

  private static boolean hasSidecar(ArmSpec arm) {
    return arm != null && arm.frontend != null && FrontendRules.has(arm.frontend.type, FrontendRules.Capability.SIDECARS)
        && arm.dynamo != null && arm.dynamo.sidecarEnabled();
  }

  private static void executable(List<Problem> out, String p, String value) {
    if (value != null && !EXECUTABLE.matcher(value).matches()) {
      out.add(Problem.error(p, InfraSpec.EXECUTABLE_MESSAGE));
    }
  }
}
