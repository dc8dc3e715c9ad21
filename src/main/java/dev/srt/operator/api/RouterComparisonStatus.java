package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** Written only by the operator's status aggregator. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RouterComparisonStatus {
  /** The metadata.generation this status describes. */
  public Long observedGeneration;

  /**
   * Summary: Pending, Queued (waiting for its direct GPU host, see queuePosition), Running,
   * Succeeded, Failed, Suspended or Invalid.
   */
  public String phase;

  /** Arms that succeeded for the current spec, out of all arms, e.g. 2/3. */
  public String armsSummary;

  /**
   * While Queued: how many comparisons are ahead of this one for its direct GPU host (which runs
   * one comparison at a time, in the order they were created).
   */
  public Integer queuePosition;

  /** Finished runs out of all runs the spec asks for (arms times repetitions), e.g. 4/9. */
  public String runsSummary;

  /** The arm that is running now, if any. */
  public String currentArm;

  /**
   * Over a load ladder with an SLO: each arm's capacity at the SLO, e.g. "cache-aware 16.6,
   * round-robin 11.3 (concurrency)"; shown by kubectl get as Capacity.
   */
  public String capacitySummary;

  /** One line for humans: what is happening or what went wrong. */
  public String message;

  /** SpecValid, ClusterReachable, Ready (the current arm serves), Complete, Degraded. */
  @SchemaFrom(type = ConditionSchema[].class)
  public List<Condition> conditions = new ArrayList<>();

  /**
   * The value of the srt.dev/rerun annotation the current runs answer; a new value starts every arm
   * again.
   */
  public String observedRerun;

  /** One entry per arm, in spec order. */
  public List<ArmStatus> arms = new ArrayList<>();

  /** The seed of a randomized execution order (spec.execution.order: randomized). */
  public Long seed;

  /** The arm the verdicts compare with. */
  public String baseline;

  /** Each other arm against the baseline, per headline metric, once arms have runs. */
  public List<Verdict> verdicts = new ArrayList<>();
}
