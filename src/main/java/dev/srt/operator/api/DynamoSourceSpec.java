package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class DynamoSourceSpec {
  /** Git URL of the Dynamo repository. Default https://github.com/ai-dynamo/dynamo. */
  @Size(max = Limits.MAX_TEXT)
  public String git;
}
