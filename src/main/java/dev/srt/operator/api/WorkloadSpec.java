package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.LinkedHashMap;
import java.util.Map;

/** The benchmark: run once per arm against that arm's router, identical in every arm. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.tool) || self.tool != 'custom' || (has(self.command) && self.command.trim() != '')", message = "workload.tool: custom needs command", fieldPath = ".command")
@ValidationRule(value = "!has(self.command) || (has(self.tool) && self.tool == 'custom')", message = "command is only used with tool: custom", fieldPath = ".command")
public class WorkloadSpec {
  /**
   * bench-serving (python -m sglang.bench_serving), aiperf (aiperf profile) or custom (command).
   * Default bench-serving.
   */
  @Size(max = Limits.MAX_WORD)
  @OneOf(WorkloadTool.class)
  @Default("bench-serving")
  public String tool;

  /**
   * Tool flags: key -> --key value; true -> --key; false -> omitted. The target URL, model, seed
   * and output location are set by srt-operator.
   */
  @SchemaFrom(type = JsonNode.class)
  @Size(max = Limits.MAX_FLAGS)
  public Map<String, Object> args = new LinkedHashMap<>();

  /**
   * Shell command for tool: custom, run with bash -c. SRT_FRONTEND_URL, SRT_MODEL, SRT_RESULTS_DIR,
   * SRT_SEED and AIPERF_ARTIFACT_DIR (results/aiperf, where AIPerf artifacts are read from) are
   * exported to it.
   */
  @Size(max = Limits.MAX_LONG_TEXT)
  public String command;

  /** Random seed given to the tool; the same in every arm. Default 42. */
  @Min(0)
  @Max(Limits.MAX_SEED)
  public Integer seed;

  /**
   * A load ladder: the benchmark runs once per level within each run. Without it the benchmark
   * runs once, at the load workload.args sets.
   */
  public LoadSpec load;

  /** Environment of the benchmark process. */
  @Size(max = Limits.MAX_ENV)
  @ValidationRule(value = Limits.KEYS_BOUNDED, message = Limits.KEYS_BOUNDED_MESSAGE)
  public Map<String, @Size(max = Limits.MAX_TEXT) String> env = new LinkedHashMap<>();
}
