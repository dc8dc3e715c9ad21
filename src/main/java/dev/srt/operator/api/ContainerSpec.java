package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.runtime) || self.runtime == 'none' || has(self.image)", message = "a container runtime needs image", fieldPath = ".image")
public class ContainerSpec {
  /** none (default), pyxis (srun --container-image) or docker (docker run on a direct host). */
  @Size(max = Limits.MAX_WORD)
  @OneOf(ContainerRuntime.class)
  @Default("none")
  public String runtime;

  /** Container image, e.g. lmsysorg/sglang:dev. */
  @Size(max = Limits.MAX_TEXT)
  public String image;

  /**
   * Bind mounts host:container; the run directory, work directory and model are mounted at the same
   * paths automatically.
   */
  @Size(max = Limits.MAX_ITEMS)
  public List<@Size(max = Limits.MAX_MOUNT) String> mounts = new ArrayList<>();
}
