package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.order) || self.order in ['declared', 'randomized']", message = "must be declared or randomized", fieldPath = ".order")
public class ExecutionSpec {
  /**
   * declared runs arms in list order; randomized shuffles them with a seed derived from the
   * comparison's uid and generation, so the order is stable across operator restarts. Default
   * declared.
   */
  @Size(max = Limits.MAX_WORD)
  public String order;
}
