package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
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
  @Min(1)
  @JsonPropertyDescription("Nodes that host the aggregated workers. Default 1.")
  public Integer aggNodes;

  @Min(1)
  @JsonPropertyDescription("Number of aggregated workers (each a full prefill+decode engine).")
  public Integer aggWorkers;

  @Min(1)
  @JsonPropertyDescription("GPUs per aggregated worker. Default: aggNodes x gpusPerNode / aggWorkers.")
  public Integer gpusPerWorker;

  @Min(1)
  @JsonPropertyDescription("Nodes that host prefill workers (prefill/decode topology).")
  public Integer prefillNodes;

  @Min(1)
  @JsonPropertyDescription("Nodes that host decode workers (prefill/decode topology).")
  public Integer decodeNodes;

  @Min(1)
  @JsonPropertyDescription("Number of prefill workers.")
  public Integer prefillWorkers;

  @Min(1)
  @JsonPropertyDescription("Number of decode workers.")
  public Integer decodeWorkers;

  @Min(1)
  @JsonPropertyDescription("GPUs per prefill worker.")
  public Integer gpusPerPrefill;

  @Min(1)
  @JsonPropertyDescription("GPUs per decode worker.")
  public Integer gpusPerDecode;

  public boolean disaggregated() {
    return prefillNodes != null || decodeNodes != null || prefillWorkers != null || decodeWorkers != null
        || gpusPerPrefill != null || gpusPerDecode != null;
  }
}
