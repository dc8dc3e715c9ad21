package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyRef {
  /** Secret name, in the GpuCluster's namespace. */
  @Required
  @Size(max = Limits.MAX_NAME)
  public String name;

  /** Key within the Secret's data. */
  @Required
  @Size(max = Limits.MAX_NAME)
  public String key;
}
