package dev.srt.operator.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Where RouterComparison arms run: a Slurm login node (one sbatch job per run) or a bare GPU host
 * (one detached bash script per run), reached over SSH with a key from a Secret (or, for trying it
 * on one machine, locally). The operator probes it and reports the Reachable condition and what
 * it found (Slurm version, partitions, GPUs) in status.
 */
@Group(Api.GROUP)
@Version(Api.VERSION)
@Kind("GpuCluster")
@Plural("gpuclusters")
@ShortNames("gpuc")
@Categories(Api.CATEGORY)
@AdditionalPrinterColumn(name = "Mode", jsonPath = ".spec.mode", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Host", jsonPath = ".spec.ssh.host", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Reachable", jsonPath = ".status.conditions[?(@.type==\"Reachable\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class GpuCluster extends CustomResource<GpuClusterSpec, GpuClusterStatus> implements Namespaced {
  // Overridden only to document spec and status in the generated schema.
  /** How to reach the host (SSH or local), how to run jobs on it (Slurm or direct) and where. */
  @Override
  public GpuClusterSpec getSpec() {
    return super.getSpec();
  }

  /** Reachability and what the last probe found; written by the operator only. */
  @Override
  public GpuClusterStatus getStatus() {
    return super.getStatus();
  }
}
