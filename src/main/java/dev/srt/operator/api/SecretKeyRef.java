package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyRef {
  @Required
  @JsonPropertyDescription("Secret name, in the GpuCluster's namespace.")
  public String name;

  @Required
  @JsonPropertyDescription("Key within the Secret's data.")
  public String key;
}
