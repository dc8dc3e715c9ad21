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

  /** Nodes that host prefill workers (prefill/decode topology), at most 128. */
  @Min(1)
  @Max(Limits.MAX_NODES)
  public Integer prefillNodes;

  /** Nodes that host decode workers (prefill/decode topology), at most 128. */
  @Min(1)
  @Max(Limits.MAX_NODES)
  public Integer decodeNodes;

  /** Number of prefill workers, at most 256. */
  @Min(1)
  @Max(Limits.MAX_WORKERS)
  public Integer prefillWorkers;

  /** Number of decode workers, at most 256. */
  @Min(1)
  @Max(Limits.MAX_WORKERS)
  public Integer decodeWorkers;

  /** GPUs per prefill worker, at most 2048. */
  @Min(1)
  @Max(Limits.MAX_GPUS_PER_WORKER)
  public Integer gpusPerPrefill;

  /** GPUs per decode worker, at most 2048. */
  @Min(1)
  @Max(Limits.MAX_GPUS_PER_WORKER)
  public Integer gpusPerDecode;

  public boolean disaggregated() {
    return prefillNodes != null || decodeNodes != null || prefillWorkers != null || decodeWorkers != null
        || gpusPerPrefill != null || gpusPerDecode != null;
  }
}
