package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class GpuClusterStatus {
  @JsonPropertyDescription("The metadata.generation this status describes.")
  public Long observedGeneration;

  @SchemaFrom(type = ConditionSchema[].class)
  @JsonPropertyDescription("Reachable: the host answered the last probe.")
  public List<Condition> conditions = new ArrayList<>();

  @JsonPropertyDescription("Slurm version reported by the login node (mode: slurm).")
  public String slurmVersion;

  @JsonPropertyDescription("Slurm partitions visible to the user.")
  public List<String> partitions = new ArrayList<>();

  @JsonPropertyDescription("GPUs found: Slurm gres per node, or nvidia-smi -L lines on a direct host.")
  public List<String> gpus = new ArrayList<>();

  @JsonPropertyDescription("When the host was last probed.")
  public String lastProbeTime;
}
