package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The per-arm Dynamo fields. Everything else about Dynamo lives in the shared spec.dynamo. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ArmDynamoSpec {
  @JsonPropertyDescription("Run native sglang.launch_server engines coupled to Dynamo sidecars instead of the in-process dynamo.sglang worker.")
  public SidecarSpec sidecar;

  @JsonPropertyDescription("External worker-selection policy catalog linked into the Dynamo wheel built from spec.dynamo.hash.")
  public PolicyCatalogSpec policyCatalog;

  public boolean sidecarEnabled() {
    return sidecar != null && sidecar.enabledOrDefault();
  }
}
