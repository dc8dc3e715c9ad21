package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The per-arm Dynamo fields. Everything else about Dynamo lives in the shared spec.dynamo. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ArmDynamoSpec {
  /**
   * Run native sglang.launch_server engines coupled to Dynamo sidecars instead of the in-process
   * dynamo.sglang worker.
   */
  public SidecarSpec sidecar;

  /**
   * External worker-selection policy catalog linked into the Dynamo wheel built from
   * spec.dynamo.hash.
   */
  public PolicyCatalogSpec policyCatalog;

  public boolean sidecarEnabled() {
    return sidecar != null && sidecar.enabledOrDefault();
  }
}
