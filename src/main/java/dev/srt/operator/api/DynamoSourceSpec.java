package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class DynamoSourceSpec {
  /** Git URL of the Dynamo repository. Default https://github.com/ai-dynamo/dynamo. */
  public String git;
}
