package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** Written only by the operator's status aggregator. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RouterComparisonStatus {
  @JsonPropertyDescription("The metadata.generation this status describes.")
  public Long observedGeneration;

  @JsonPropertyDescription("Summary: Pending, Running, Succeeded, Failed, Suspended or Invalid.")
  public String phase;

  @JsonPropertyDescription("Arms that succeeded for the current spec, out of all arms, e.g. 2/3.")
  public String armsSummary;

  @JsonPropertyDescription("The arm that is running now, if any.")
  public String currentArm;

  @JsonPropertyDescription("One line for humans: what is happening or what went wrong.")
  public String message;

  @SchemaFrom(type = ConditionSchema[].class)
  @JsonPropertyDescription("SpecValid, ClusterReachable, Ready (the current arm serves), Complete, Degraded.")
  public List<Condition> conditions = new ArrayList<>();

  @JsonPropertyDescription("The value of the srt.dev/rerun annotation the current runs answer; a new value starts every arm again.")
  public String observedRerun;

  @JsonPropertyDescription("One entry per arm, in spec order.")
  public List<ArmStatus> arms = new ArrayList<>();
}
