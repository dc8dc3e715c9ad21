package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class GpuClusterStatus {
  /** The metadata.generation this status describes. */
  public Long observedGeneration;

  /**
   * Reachable: the host answered the last probe. InUse: runs of RouterComparisons use the cluster
   * (its deletion waits for them). Degraded: its last reconcile failed (reason ReconcileError).
   */
  @SchemaFrom(type = ConditionSchema[].class)
  public List<Condition> conditions = new ArrayList<>();

  /** Slurm version reported by the login node (mode: slurm). */
  public String slurmVersion;

  /** Slurm partitions visible to the user. */
  public List<String> partitions = new ArrayList<>();

  /** GPUs found: Slurm gres per node, or nvidia-smi -L lines on a direct host. */
  public List<String> gpus = new ArrayList<>();

  /** When the host was last probed. */
  public String lastProbeTime;
}
