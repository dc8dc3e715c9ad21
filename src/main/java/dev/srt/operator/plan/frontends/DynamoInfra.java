package dev.srt.operator.plan.frontends;

import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.InfraSpec;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.ArmContext;
import dev.srt.operator.plan.Endpoint;
import dev.srt.operator.plan.Probe;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.plan.SglangEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The services a Dynamo arm starts for itself, as srt-slurm does: etcd for discovery (unless
 * discovery is file) and {@code nats-server -js} when the event or request plane is NATS. Both
 * run on the first node (the host, in direct mode), with their data in the run directory, from
 * the GpuCluster's {@code spec.infra} executables and ports; the run stops them with everything
 * else. Every Dynamo process is told where they are ({@link #env}).
 */
public final class DynamoInfra {
  public static final String ETCD = "etcd";
  public static final String NATS = "nats-server";
  /** Data directories, relative to the run directory (the processes' working directory). */
  public static final String ETCD_DATA = "infra/etcd";
  public static final String NATS_STORE = "infra/nats";
  /** The one member of the run's etcd cluster; its peer URL is never dialled, so it stays on loopback. */
  static final String PEER_HOST = "127.0.0.1";
  /** File discovery's store, relative to the run directory, so arms render identical commands. */
  public static final String DISCOVERY_DIR = "dynamo-discovery";

  private DynamoInfra() {}

  public static boolean etcd(ArmContext ctx) {
    return "etcd".equals(dynamo(ctx).discoveryOrDefault());
  }

  public static boolean nats(ArmContext ctx) {
    return dynamo(ctx).usesNats();
  }

  /** etcd and NATS as processes of the infra role, on node 0, each with its readiness probe. */
  public static List<ProcessSpec> processes(ArmContext ctx) {
    InfraSpec infra = ctx.cluster().infraOrDefault();
    Map<String, Integer> ports = infra.ports();
    // Slurm: other nodes' Dynamo processes dial node 0; direct: nothing leaves the host.
    String listen = ctx.mode() == Mode.DIRECT ? "127.0.0.1" : "0.0.0.0";
    List<ProcessSpec> out = new ArrayList<>();
    if (etcd(ctx)) {
      int client = ports.get("etcdClientPort");
      String peer = "http://" + PEER_HOST + ":" + ports.get("etcdPeerPort");
      List<String> argv = List.of(infra.etcdOrDefault(), "--data-dir", ETCD_DATA,
          "--listen-client-urls", "http://" + listen + ":" + client, "--advertise-client-urls", etcdEndpoint(ctx),
          "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", "default=" + peer);
      Map<String, Integer> etcdPorts = new LinkedHashMap<>();
      etcdPorts.put("client", client);
      etcdPorts.put("peer", ports.get("etcdPeerPort"));
      Endpoint server = Endpoint.http(PEER_HOST, client);
      out.add(new ProcessSpec(ETCD, Role.INFRA, 0, argv, Map.of(), etcdPorts, null, SglangEngine.logOf(ETCD),
          Probe.httpStatus(server.healthUrl(), 200), null, null).serving(server));
    }
    if (nats(ctx)) {
      int client = ports.get("natsPort");
      int monitor = ports.get("natsMonitorPort");
      List<String> argv = List.of(infra.natsServerOrDefault(), "-js", "-a", listen, "-p", String.valueOf(client),
          "-m", String.valueOf(monitor), "-sd", NATS_STORE);
      Map<String, Integer> natsPorts = new LinkedHashMap<>();
      natsPorts.put("client", client);
      natsPorts.put("monitor", monitor);
      // Its monitoring port answers /healthz; it serves no Prometheus text.
      Endpoint server = new Endpoint(PEER_HOST, monitor, "/healthz", null, null, null);
      out.add(new ProcessSpec(NATS, Role.INFRA, 0, argv, Map.of(), natsPorts, null, SglangEngine.logOf(NATS),
          Probe.httpStatus(server.healthUrl(), 200), null, null).serving(server));
    }
    return out;
  }

  /** The executables {@link #processes} run, checked before the first build. */
  public static List<RunPlan.Preflight> preflight(ArmContext ctx) {
    InfraSpec infra = ctx.cluster().infraOrDefault();
    List<RunPlan.Preflight> out = new ArrayList<>();
    if (etcd(ctx)) {
      out.add(new RunPlan.Preflight(infra.etcdOrDefault(), 0, "spec.infra.etcd"));
    }
    if (nats(ctx)) {
      out.add(new RunPlan.Preflight(infra.natsServerOrDefault(), 0, "spec.infra.natsServer"));
    }
    return out;
  }

  /**
   * Where every Dynamo process finds discovery and NATS: {@code ETCD_ENDPOINTS} (Dynamo's default
   * discovery backend, so no DYN_DISCOVERY_BACKEND, as in srt-slurm) or the file store, and
   * {@code NATS_SERVER} only when a plane uses NATS (srt-slurm #439).
   */
  public static Map<String, String> env(ArmContext ctx) {
    Map<String, String> env = new LinkedHashMap<>();
    if (etcd(ctx)) {
      env.put("ETCD_ENDPOINTS", etcdEndpoint(ctx));
    } else {
      env.put("DYN_DISCOVERY_BACKEND", "file");
      env.put("DYN_FILE_KV", DISCOVERY_DIR);
    }
    if (nats(ctx)) {
      env.put("NATS_SERVER", "nats://" + ctx.nodeHost(0) + ":" + ctx.cluster().infraOrDefault().ports().get("natsPort"));
    }
    return env;
  }

  private static String etcdEndpoint(ArmContext ctx) {
    return "http://" + ctx.nodeHost(0) + ":" + ctx.cluster().infraOrDefault().ports().get("etcdClientPort");
  }

  private static DynamoSpec dynamo(ArmContext ctx) {
    return ctx.spec().dynamo;
  }
}
