package dev.srt.operator.config;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.ResourcesSpec;
import java.util.List;

/**
 * The rules of {@code spec.resources}: an aggregated or a prefill/decode topology, and whether its
 * workers pack onto the cluster's nodes ({@link WorkerFit}, {@link DisaggregatedFit}).
 */
final class TopologyRules {
  private TopologyRules() {}

  static void check(List<Problem> out, ResourcesSpec r, GpuCluster cluster) {
    boolean agg = r.aggNodes != null || r.aggWorkers != null || r.gpusPerWorker != null;
    if (agg && r.disaggregated()) {
      out.add(Problem.error("spec.resources", "aggregated (agg*, gpusPerWorker) and prefill/decode fields cannot be mixed"));
      return;
    }
    Rules.positive(out, "spec.resources.aggNodes", r.aggNodes);
    Rules.positive(out, "spec.resources.aggWorkers", r.aggWorkers);
    Rules.positive(out, "spec.resources.gpusPerWorker", r.gpusPerWorker);
    Rules.positive(out, "spec.resources.prefillNodes", r.prefillNodes);
    Rules.positive(out, "spec.resources.decodeNodes", r.decodeNodes);
    Rules.positive(out, "spec.resources.prefillWorkers", r.prefillWorkers);
    Rules.positive(out, "spec.resources.decodeWorkers", r.decodeWorkers);
    if (r.disaggregated()) {
      disaggregated(out, r, cluster);
      return;
    }
    if (r.aggWorkers == null) {
      out.add(Problem.error("spec.resources.aggWorkers", "is required (or prefillWorkers and decodeWorkers)"));
      return;
    }
    if (r.aggWorkers < 1 || (r.aggNodes != null && r.aggNodes < 1) || Validator.gpusPerNode(cluster) < 1
        || (r.gpusPerWorker != null && r.gpusPerWorker < 1)) {
      return;
    }
    fit(out, WorkerFit.of(r, Validator.gpusPerNode(cluster)), new RoleFields("aggWorkers", "gpusPerWorker", "aggNodes", "workers"));
  }


  /** The field names of one role's topology, for the messages about its fit. */
  private record RoleFields(String workers, String gpusPerWorker, String nodes, String noun) {}

  /** Does one role's fit (aggregated, prefill or decode) pack onto its nodes? */
  private static void fit(List<Problem> out, WorkerFit fit, RoleFields f) {
    long perNode = fit.gpusPerNode();
    long nodes = fit.nodes();
    long workers = fit.workers();
    long perWorker = fit.gpusPerWorker();
    if (perWorker < 1) {
      out.add(Problem.error("spec.resources." + f.workers(), workers + " " + f.noun() + " do not fit on " + nodes + " x " + perNode + " GPUs"));
    } else if (workers * perWorker > nodes * perNode) {
      out.add(Problem.error("spec.resources", f.workers() + " x " + f.gpusPerWorker() + " = " + (workers * perWorker)
          + " GPUs, more than " + f.nodes() + " x gpusPerNode = " + (nodes * perNode)));
    } else if (perWorker > perNode && perWorker % perNode != 0) {
      out.add(Problem.error("spec.resources." + f.gpusPerWorker(), perWorker + " GPUs per worker span nodes of " + perNode
          + ": a multi-node worker takes whole nodes, so use a multiple of " + perNode));
    } else if (perWorker <= perNode && (perNode / perWorker) * nodes < workers) {
      out.add(Problem.error("spec.resources", workers + " " + f.noun() + " of " + perWorker + " GPUs do not pack onto "
          + nodes + " nodes of " + perNode + " GPUs"));
    }
  }

  /**
   * A prefill/decode topology: both worker counts; prefillNodes and decodeNodes together or not at
   * all; each role's fit on its own nodes, or both roles on one shared node.
   */
  private static void disaggregated(List<Problem> out, ResourcesSpec r, GpuCluster cluster) {
    if (r.prefillWorkers == null || r.decodeWorkers == null) {
      out.add(Problem.error("spec.resources", "prefillWorkers and decodeWorkers go together"));
      return;
    }
    if ((r.prefillNodes == null) != (r.decodeNodes == null)) {
      out.add(Problem.error("spec.resources",
          "set both prefillNodes and decodeNodes (each role on its own nodes), or neither (both roles share one node)"));
      return;
    }
    Rules.positive(out, "spec.resources.gpusPerPrefill", r.gpusPerPrefill);
    Rules.positive(out, "spec.resources.gpusPerDecode", r.gpusPerDecode);
    int gpusPerNode = Validator.gpusPerNode(cluster);
    if (r.prefillWorkers < 1 || r.decodeWorkers < 1 || (r.prefillNodes != null && r.prefillNodes < 1)
        || (r.decodeNodes != null && r.decodeNodes < 1) || gpusPerNode < 1
        || (r.gpusPerPrefill != null && r.gpusPerPrefill < 1) || (r.gpusPerDecode != null && r.gpusPerDecode < 1)) {
      return;
    }
    DisaggregatedFit fit = DisaggregatedFit.of(r, gpusPerNode);
    if (!fit.sharedNode()) {
      fit(out, fit.prefill(), new RoleFields("prefillWorkers", "gpusPerPrefill", "prefillNodes", "prefill workers"));
      fit(out, fit.decode(), new RoleFields("decodeWorkers", "gpusPerDecode", "decodeNodes", "decode workers"));
      return;
    }
    long prefill = fit.prefill().workers() * fit.prefill().gpusPerWorker();
    long decode = fit.decode().workers() * fit.decode().gpusPerWorker();
    if (fit.prefill().gpusPerWorker() < 1 || fit.decode().gpusPerWorker() < 1) {
      out.add(Problem.error("spec.resources", fit.workers() + " prefill and decode workers do not fit on one node of "
          + gpusPerNode + " GPUs (set prefillNodes and decodeNodes to give each role nodes of its own)"));
    } else if (prefill + decode > gpusPerNode) {
      out.add(Problem.error("spec.resources", "prefillWorkers x gpusPerPrefill + decodeWorkers x gpusPerDecode = "
          + (prefill + decode) + " GPUs, more than the one node of " + gpusPerNode
          + " GPUs both roles share without prefillNodes and decodeNodes"));
    }
  }

  /** The nodes a topology takes. */
  static long nodes(ResourcesSpec r) {
    if (r.disaggregated()) {
      // Without prefillNodes and decodeNodes both roles share one node.
      return r.prefillNodes == null && r.decodeNodes == null ? 1
          : (r.prefillNodes == null ? 0L : r.prefillNodes) + (r.decodeNodes == null ? 0L : r.decodeNodes);
    }
    return r.aggNodes == null ? 1 : r.aggNodes;
  }
}
