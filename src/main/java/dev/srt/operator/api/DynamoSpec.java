package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** How Dynamo is installed for arms whose frontend is dynamo. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "(has(self.install) && !self.install) || [has(self.version), has(self.hash), has(self.wheel)].filter(x, x).size() == 1",
    message = "set exactly one Dynamo install source: version, hash or wheel")
@ValidationRule(value = "!has(self.install) || self.install || !(has(self.version) || has(self.hash) || has(self.wheel))",
    message = "install: false uses the Dynamo already on the host; remove version, hash and wheel", fieldPath = ".install")
@ValidationRule(value = "!has(self.hash) || self.hash.matches('^[0-9a-f]{40}$')", message = "must be a full 40-hex commit", fieldPath = ".hash")
@ValidationRule(value = "!has(self.wheel) || self.wheel.startsWith('/')", message = "must be an absolute host path", fieldPath = ".wheel")
@ValidationRule(value = "!has(self.sidecarStartupTimeout) || self.sidecarStartupTimeout.matches('^([0-9]+(ms|s|m|h))+$')",
    message = "must be a duration such as 20m", fieldPath = ".sidecarStartupTimeout")
public class DynamoSpec {
  /**
   * false: Dynamo is already installed on the host (or in the container image), so nothing is
   * installed and version, hash and wheel are left unset; a policy catalog, which needs a build,
   * is then refused. Default true.
   */
  @Default("true")
  public Boolean install;

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
   * How Dynamo processes find each other: etcd (default, as Dynamo and srt-slurm) or file. With
   * etcd, each Dynamo arm starts its own etcd on the first node (the host, in direct mode) and
   * every Dynamo process gets ETCD_ENDPOINTS; with file, they share a directory in the run
   * directory (DYN_FILE_KV) and no etcd runs.
   */
  @Size(max = Limits.MAX_WORD)
  @OneOf(DynamoDiscovery.class)
  public String discovery;

  /**
   * Dynamo event plane (DYN_EVENT_PLANE), which carries the KV events to the router: zmq or nats.
   * Default: Dynamo's own, nats with etcd discovery and zmq with file discovery. A nats plane
   * starts nats-server -js beside etcd and gives every Dynamo process NATS_SERVER.
   */
  @Size(max = Limits.MAX_WORD)
  @OneOf(DynamoEventPlane.class)
  public String eventPlane;

  /**
   * Dynamo request plane (DYN_REQUEST_PLANE): tcp (default), http or nats. nats starts
   * nats-server -js as the event plane does.
   */
  @Size(max = Limits.MAX_WORD)
  @OneOf(DynamoRequestPlane.class)
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

  /** Whether the run installs Dynamo itself (false: it is already on the host). */
  @JsonIgnore
  public boolean installOrDefault() {
    return install == null || install;
  }

  /** The discovery backend in effect: {@link #discovery}, else etcd. */
  @JsonIgnore
  public String discoveryOrDefault() {
    return discovery == null ? "etcd" : discovery;
  }

  /**
   * The event plane in effect: {@link #eventPlane}, else NATS with etcd discovery (Dynamo's
   * default before 1.6, which arms keep by exporting it: 1.6.1 defaults to ZMQ everywhere) and
   * ZMQ otherwise. Every Dynamo process gets it as {@code DYN_EVENT_PLANE}.
   */
  @JsonIgnore
  public String eventPlaneOrDefault() {
    return eventPlane != null ? eventPlane : "etcd".equals(discoveryOrDefault()) ? "nats" : "zmq";
  }

  /** Whether a plane in effect is NATS, so the arm needs a NATS server. */
  @JsonIgnore
  public boolean usesNats() {
    return "nats".equals(eventPlaneOrDefault()) || "nats".equals(requestPlane);
  }
}
