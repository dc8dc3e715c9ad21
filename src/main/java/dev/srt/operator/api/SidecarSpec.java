package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;
import java.util.ArrayList;
import java.util.List;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class SidecarSpec {
  /**
   * Start a Dynamo sidecar beside each native SGLang engine. Default true when the sidecar block is
   * present.
   */
  public Boolean enabled;

  /** Extra arguments appended to python -m dynamo.sglang.sidecar. */
  @Size(max = Limits.MAX_ARGS)
  public List<@Size(max = Limits.MAX_TEXT) String> args = new ArrayList<>();

  public boolean enabledOrDefault() {
    return enabled == null || enabled;
  }
}
