package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** One arm: the only place where arms may differ, and only in routing. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "size(self.name) <= 63 && self.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
    message = "must be a DNS label: lower-case letters, digits and '-', at most 63 characters", fieldPath = ".name")
@ValidationRule(value = "!has(self.dynamo) || !has(self.dynamo.policyCatalog) || self.frontend.type in " + FrontendType.CEL_POLICY_CATALOG,
    message = "dynamo.policyCatalog requires a frontend.type in " + FrontendType.CEL_POLICY_CATALOG, fieldPath = ".dynamo.policyCatalog")
@ValidationRule(value = "!has(self.dynamo) || !has(self.dynamo.sidecar) || self.frontend.type in " + FrontendType.CEL_SIDECARS,
    message = "dynamo.sidecar requires a frontend.type in " + FrontendType.CEL_SIDECARS, fieldPath = ".dynamo.sidecar")
public class ArmSpec {
  /**
   * Arm name: a DNS label, unique within the comparison. Used in job names, run directories and
   * status.
   */
  @Required
  @Size(max = Limits.MAX_DNS_LABEL)
  public String name;

  /** The router of this arm. */
  @Required
  public FrontendSpec frontend;

  /** Dynamo routing fields of this arm (sidecar workers, policy catalog). */
  public ArmDynamoSpec dynamo;
}
