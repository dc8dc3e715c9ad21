package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyRef {
  /** Secret name, in the GpuCluster's namespace. */
  @Required
  public String name;

  /** Key within the Secret's data. */
  @Required
  public String key;
}
