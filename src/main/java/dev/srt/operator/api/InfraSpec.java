package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The services a Dynamo arm starts for itself on the first node (the host, in direct mode): etcd
 * for discovery, and nats-server when a Dynamo plane uses NATS. Where their binaries are, and the
 * ports they bind, which a shared host may need to move.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.etcd) || self.etcd.matches('^[A-Za-z0-9._/+][A-Za-z0-9._/+-]*$')", message = InfraSpec.EXECUTABLE_MESSAGE, fieldPath = ".etcd")
@ValidationRule(value = "!has(self.natsServer) || self.natsServer.matches('^[A-Za-z0-9._/+][A-Za-z0-9._/+-]*$')", message = InfraSpec.EXECUTABLE_MESSAGE, fieldPath = ".natsServer")
public class InfraSpec {
  public static final String EXECUTABLE_MESSAGE =
      "must be an executable name or path of letters, digits, '.', '_', '/', '+' and '-', not starting with '-'";
  public static final int DEFAULT_ETCD_CLIENT_PORT = 2379;
  public static final int DEFAULT_ETCD_PEER_PORT = 2380;
  public static final int DEFAULT_NATS_PORT = 4222;
  public static final int DEFAULT_NATS_MONITOR_PORT = 8222;

  /** The etcd executable: a name looked up on the run's PATH (default etcd) or an absolute host path. */
  @Size(max = Limits.MAX_PATH)
  @Default("etcd")
  public String etcd;

  /**
   * The nats-server executable: a name looked up on the run's PATH (default nats-server) or an
   * absolute host path.
   */
  @Size(max = Limits.MAX_PATH)
  @Default("nats-server")
  public String natsServer;

  /** etcd's client port (ETCD_ENDPOINTS). Default 2379. */
  @Min(Limits.MIN_PORT)
  @Max(Limits.MAX_PORT)
  @Default("" + DEFAULT_ETCD_CLIENT_PORT)
  public Integer etcdClientPort;

  /** etcd's peer port (a one-member cluster, bound on 127.0.0.1). Default 2380. */
  @Min(Limits.MIN_PORT)
  @Max(Limits.MAX_PORT)
  @Default("" + DEFAULT_ETCD_PEER_PORT)
  public Integer etcdPeerPort;

  /** nats-server's client port (NATS_SERVER). Default 4222. */
  @Min(Limits.MIN_PORT)
  @Max(Limits.MAX_PORT)
  @Default("" + DEFAULT_NATS_PORT)
  public Integer natsPort;

  /** nats-server's monitoring port, whose /healthz gates the run. Default 8222. */
  @Min(Limits.MIN_PORT)
  @Max(Limits.MAX_PORT)
  @Default("" + DEFAULT_NATS_MONITOR_PORT)
  public Integer natsMonitorPort;

  @JsonIgnore
  public String etcdOrDefault() {
    return etcd == null ? "etcd" : etcd;
  }

  @JsonIgnore
  public String natsServerOrDefault() {
    return natsServer == null ? "nats-server" : natsServer;
  }

  /** The four ports in effect, by their field names, in this order. */
  @JsonIgnore
  public Map<String, Integer> ports() {
    Map<String, Integer> ports = new LinkedHashMap<>();
    ports.put("etcdClientPort", etcdClientPort == null ? DEFAULT_ETCD_CLIENT_PORT : etcdClientPort);
    ports.put("etcdPeerPort", etcdPeerPort == null ? DEFAULT_ETCD_PEER_PORT : etcdPeerPort);
    ports.put("natsPort", natsPort == null ? DEFAULT_NATS_PORT : natsPort);
    ports.put("natsMonitorPort", natsMonitorPort == null ? DEFAULT_NATS_MONITOR_PORT : natsMonitorPort);
    return ports;
  }
}
