package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.path.startsWith('/')", message = "must be an absolute host path", fieldPath = ".path")
@ValidationRule(value = "!has(self.tokenizerPath) || self.tokenizerPath.startsWith('/')", message = "must be an absolute host path", fieldPath = ".tokenizerPath")
public class ModelSpec {
  /**
   * Absolute path of the model directory on the GPU host (passed to every worker as --model-path).
   */
  @Required
  @Size(max = Limits.MAX_PATH)
  public String path;

  /**
   * Name the workers serve the model under (--served-model-name), the routers' --model-id and the
   * benchmark's --model. Default: the last element of path.
   */
  @Size(max = Limits.MAX_TEXT)
  public String servedModelName;

  /**
   * Tokenizer file for sgl-router's --tokenizer-path. Default: <path>/tokenizer.json (the router
   * rejects a bare model directory).
   */
  @Size(max = Limits.MAX_PATH)
  public String tokenizerPath;
}
