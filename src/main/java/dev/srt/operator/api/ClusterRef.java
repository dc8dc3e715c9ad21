package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterRef {
  /** Name of the GpuCluster, in the comparison's namespace, that runs the arms. */
  @Required
  @Size(max = Limits.MAX_NAME)
  public String name;
}
