package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** How Dynamo is installed for arms whose frontend is dynamo. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "[has(self.version), has(self.hash), has(self.wheel)].filter(x, x).size() == 1",
    message = "set exactly one Dynamo install source: version, hash or wheel")
@ValidationRule(value = "!has(self.hash) || self.hash.matches('^[0-9a-f]{40}$')", message = "must be a full 40-hex commit", fieldPath = ".hash")
@ValidationRule(value = "!has(self.eventPlane) || self.eventPlane == 'zmq'", message = "must be zmq (a nats plane needs a NATS server, which srt-operator does not start yet)", fieldPath = ".eventPlane")
@ValidationRule(value = "!has(self.requestPlane) || self.requestPlane in ['tcp', 'http']", message = "must be tcp or http (a nats plane needs a NATS server, which srt-operator does not start yet)", fieldPath = ".requestPlane")
@ValidationRule(value = "!has(self.wheel) || self.wheel.startsWith('/')", message = "must be an absolute host path", fieldPath = ".wheel")
@ValidationRule(value = "!has(self.sidecarStartupTimeout) || self.sidecarStartupTimeout.matches('^([0-9]+(ms|s|m|h))+$')",
    message = "must be a duration such as 20m", fieldPath = ".sidecarStartupTimeout")
public class DynamoSpec {
  /** Released version installed from the package index (pip install ai-dynamo==<version>). */
  @Size(max = Limits.MAX_WORD)
  public String version;

  /** Commit (40 hex) of a cached source build; required by policy catalogs. */
  @Size(max = Limits.COMMIT_LENGTH)
  public String hash;

  /** Absolute host path of a prebuilt ai_dynamo_runtime wheel to install. */
  @Size(max = Limits.MAX_PATH)
  public String wheel;

  /** Where the source build of hash comes from. */
  public DynamoSourceSpec source;

  /**
   * Dynamo event plane (DYN_EVENT_PLANE): zmq. Discovery is file-based in the run directory, so no
   * etcd or NATS runs. Default: Dynamo's own.
   */
  @Size(max = Limits.MAX_WORD)
  public String eventPlane;

  /** Dynamo request plane (DYN_REQUEST_PLANE): tcp or http. Default tcp. */
  @Size(max = Limits.MAX_WORD)
  public String requestPlane;

  /**
   * Base gRPC port of the native SGLang engines coupled to sidecars; worker i uses base+i. Default
   * 50051.
   */
  @Min(Limits.MIN_PORT)
  @Max(Limits.MAX_PORT)
  public Integer sidecarPort;

  /**
   * How long a sidecar waits for its engine's gRPC port, e.g. 20m. Default: healthCheck.timeout.
   */
  @Size(max = Limits.MAX_WORD)
  public String sidecarStartupTimeout;
}
