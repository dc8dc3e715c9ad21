package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;

/** Worker topology: either aggregated workers or a prefill/decode split, never both. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!((has(self.aggNodes) || has(self.aggWorkers) || has(self.gpusPerWorker)) && (has(self.prefillNodes) || has(self.decodeNodes) || has(self.prefillWorkers) || has(self.decodeWorkers) || has(self.gpusPerPrefill) || has(self.gpusPerDecode)))",
    message = "aggregated (agg*, gpusPerWorker) and prefill/decode fields cannot be mixed")
@ValidationRule(value = "has(self.aggWorkers) || has(self.prefillWorkers) || has(self.decodeWorkers)",
    message = "set aggWorkers, or prefillWorkers and decodeWorkers")
@ValidationRule(value = "has(self.prefillWorkers) == has(self.decodeWorkers)",
    message = "prefillWorkers and decodeWorkers go together")
@ValidationRule(value = "has(self.prefillNodes) == has(self.decodeNodes)",
    message = "set both prefillNodes and decodeNodes (each role on its own nodes), or neither (both roles share one node)")
public class ResourcesSpec {
  /** Nodes that host the aggregated workers, at most 128. Default 1. */
  @Min(1)
  @Max(Limits.MAX_NODES)
  public Integer aggNodes;

  /** Number of aggregated workers (each a full prefill+decode engine), at most 256. */
  @Min(1)
  @Max(Limits.MAX_WORKERS)
  public Integer aggWorkers;

  /** GPUs per aggregated worker, at most 2048. Default: aggNodes x gpusPerNode / aggWorkers. */
  @Min(1)
  @Max(Limits.MAX_GPUS_PER_WORKER)
  public Integer gpusPerWorker;

  /**
   * Nodes of their own for the prefill workers (prefill/decode topology), at most 128; the decode
   * workers then follow on decodeNodes further nodes. Set both or neither: without them, prefill
   * and decode workers share one node (prefill GPUs first), as on a direct host.
   */
  @Min(1)
  @Max(Limits.MAX_NODES)
  public Integer prefillNodes;

  /**
   * Nodes of their own for the decode workers, after the prefill nodes, at most 128. Set together
   * with prefillNodes.
   */
  @Min(1)
  @Max(Limits.MAX_NODES)
  public Integer decodeNodes;

  /**
   * Number of prefill workers (SGLang --disaggregation-mode prefill), at most 256. Only Dynamo arms
   * route a prefill/decode topology.
   */
  @Min(1)
  @Max(Limits.MAX_WORKERS)
  public Integer prefillWorkers;

  /** Number of decode workers (SGLang --disaggregation-mode decode), at most 256. */
  @Min(1)
  @Max(Limits.MAX_WORKERS)
  public Integer decodeWorkers;

  /**
   * GPUs per prefill worker, at most 2048. Default: prefillNodes x gpusPerNode / prefillWorkers, or
   * on a shared node gpusPerNode / (prefillWorkers + decodeWorkers). More than a node's GPUs makes
   * a multi-node worker (whole nodes).
   */
  @Min(1)
  @Max(Limits.MAX_GPUS_PER_WORKER)
  public Integer gpusPerPrefill;

  /**
   * GPUs per decode worker, at most 2048. Default: decodeNodes x gpusPerNode / decodeWorkers, or
   * on a shared node gpusPerNode / (prefillWorkers + decodeWorkers).
   */
  @Min(1)
  @Max(Limits.MAX_GPUS_PER_WORKER)
  public Integer gpusPerDecode;

  public boolean disaggregated() {
    return prefillNodes != null || decodeNodes != null || prefillWorkers != null || decodeWorkers != null
        || gpusPerPrefill != null || gpusPerDecode != null;
  }
}
