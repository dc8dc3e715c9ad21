package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.Mode;
import dev.srt.operator.config.LoadedResources;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Dynamo arm's own etcd and NATS: which start, with what, on which ports, gated how, and what
 * every Dynamo process is told about them.
 */
class DynamoInfraTest {
  private static final String PLANES = "    eventPlane: zmq\n    requestPlane: tcp\n";

  private static RunPlan plan(String planes, String arm, Mode mode, String clusterSpec) {
    String cluster = """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec:
          mode: %s
          transport: local
          workDir: /scratch/srt
        """.formatted(mode.id()) + clusterSpec;
    LoadedResources r = Examples.parse(Examples.exampleYaml().replace(PLANES, planes) + "\n---\n" + cluster);
    return Planner.plan(r.comparisons().get(0), r.clusters().get(0), arm, mode);
  }

  private static RunPlan plan(String planes, String arm, Mode mode) {
    return plan(planes, arm, mode, "");
  }

  /** The Dynamo processes: every one but the native engines (which are SGLang's). */
  private static List<ProcessSpec> dynamoProcesses(RunPlan p) {
    return p.processes().stream().filter(q -> q.role() == Role.SIDECAR || q.role() == Role.ROUTER || q.role() == Role.WORKER).toList();
  }

  @Test
  void etcdIsTheDefaultDiscoveryAndStartsFirstWithItsDataInTheRunDirectory() {
    RunPlan p = Examples.plan("dynamo-kv", Mode.DIRECT);
    assertThat(p.processes(Role.INFRA)).singleElement().satisfies(etcd -> {
      assertThat(etcd.name()).isEqualTo("etcd");
      assertThat(etcd.node()).isZero();
      assertThat(etcd.argv()).containsExactly("etcd", "--data-dir", "infra/etcd",
          "--listen-client-urls", "http://127.0.0.1:2379", "--advertise-client-urls", "http://127.0.0.1:2379",
          "--listen-peer-urls", "http://127.0.0.1:2380", "--initial-advertise-peer-urls", "http://127.0.0.1:2380",
          "--initial-cluster", "default=http://127.0.0.1:2380");
      assertThat(etcd.ports()).containsExactly(Map.entry("client", 2379), Map.entry("peer", 2380));
      assertThat(etcd.probe()).isEqualTo(Probe.httpStatus("http://127.0.0.1:2379/health", 200));
      assertThat(etcd.afterGate()).isNull();
      assertThat(etcd.log()).isEqualTo("logs/etcd.log");
    });
    assertThat(p.processes().get(0).name()).isEqualTo("etcd");
    assertThat(p.preflight()).containsExactly(new RunPlan.Preflight("etcd", 0, "spec.infra.etcd"));
    assertThat(p.facts()).containsEntry("dynamoDiscovery", "etcd").containsEntry("dynamoEventPlane", "zmq");
  }

  @Test
  void theInfraGateComesFirstWithTheSeedsTimeoutAndEverythingElseStartsAfterIt() {
    RunPlan p = Examples.plan("dynamo-kv", Mode.SLURM);
    Gate infra = p.gates().get(0);
    assertThat(infra.name()).isEqualTo(Gates.INFRA_READY);
    assertThat(infra.timeoutSeconds()).isEqualTo(300L);
    assertThat(infra.checks()).singleElement().isEqualTo(new Gate.Check("etcd", Role.INFRA, Probe.httpStatus("http://127.0.0.1:2379/health", 200)));
    assertThat(p.gates().subList(1, p.gates().size())).allSatisfy(g -> assertThat(g.timeoutSeconds()).isNull());
    assertThat(p.processes()).filteredOn(q -> q.role() != Role.INFRA && q.role() != Role.BENCHMARK).isNotEmpty()
        .allSatisfy(q -> assertThat(q.afterGate()).as(q.name()).isEqualTo(Gates.INFRA_READY));
  }

  @Test
  void everyDynamoProcessIsToldWhereEtcdIsAndNoneAboutNatsOnZmqAndTcp() {
    for (Mode mode : Mode.values()) {
      RunPlan p = Examples.plan("dynamo-kv", mode);
      String etcd = mode == Mode.DIRECT ? "http://127.0.0.1:2379" : "http://{{node:0}}:2379";
      assertThat(dynamoProcesses(p)).hasSize(3).allSatisfy(q -> assertThat(q.env()).as(q.name())
          .containsEntry("ETCD_ENDPOINTS", etcd).doesNotContainKeys("NATS_SERVER", "DYN_DISCOVERY_BACKEND", "DYN_FILE_KV"));
      assertThat(p.processes(Role.ENGINE)).allSatisfy(q -> assertThat(q.env()).doesNotContainKey("ETCD_ENDPOINTS"));
      assertThat(p.processes(Role.INFRA)).extracting(ProcessSpec::name).containsExactly("etcd");
    }
    // In a Slurm job the services listen on every interface of the first node, which the others dial.
    assertThat(Examples.plan("dynamo-kv", Mode.SLURM).process("etcd").argv())
        .containsSequence("--listen-client-urls", "http://0.0.0.0:2379", "--advertise-client-urls", "http://{{node:0}}:2379");
    // The in-process Dynamo worker is a Dynamo process too.
    String yaml = Examples.exampleYaml().replace("    dynamo: {sidecar: {enabled: true}}\n", "");
    RunPlan legacy = Planner.plan(Examples.parse(yaml).comparisons().get(0), null, "dynamo-kv", Mode.DIRECT);
    assertThat(legacy.process("worker-0").env()).containsEntry("ETCD_ENDPOINTS", "http://127.0.0.1:2379");
  }

  @Test
  void aNatsPlaneStartsNatsServerWithJetStreamAndEveryDynamoProcessGetsNatsServer() {
    for (String planes : List.of("    eventPlane: nats\n    requestPlane: tcp\n", "    eventPlane: zmq\n    requestPlane: nats\n",
        "    requestPlane: tcp\n")) {
      RunPlan p = plan(planes, "dynamo-kv", Mode.DIRECT);
      assertThat(p.processes(Role.INFRA)).extracting(ProcessSpec::name).as(planes).containsExactly("etcd", "nats-server");
      ProcessSpec nats = p.process("nats-server");
      assertThat(nats.argv()).containsExactly("nats-server", "-js", "-a", "127.0.0.1", "-p", "4222", "-m", "8222", "-sd", "infra/nats");
      assertThat(nats.ports()).containsExactly(Map.entry("client", 4222), Map.entry("monitor", 8222));
      assertThat(p.gates().get(0).checks()).extracting(Gate.Check::target).containsExactly("etcd", "nats-server");
      assertThat(p.gates().get(0).checks().get(1).probe()).isEqualTo(Probe.httpStatus("http://127.0.0.1:8222/healthz", 200));
      assertThat(dynamoProcesses(p)).allSatisfy(q -> assertThat(q.env()).containsEntry("NATS_SERVER", "nats://127.0.0.1:4222"));
      assertThat(p.preflight()).extracting(RunPlan.Preflight::field).containsExactly("spec.infra.etcd", "spec.infra.natsServer");
    }
    // Without an event plane, the arm means NATS with etcd discovery (Dynamo's default before 1.6)
    // and starts it, and says so to every Dynamo process: Dynamo 1.6.1 would otherwise pick ZMQ.
    RunPlan unset = plan("    requestPlane: tcp\n", "dynamo-kv", Mode.DIRECT);
    assertThat(unset.facts()).containsEntry("dynamoEventPlane", "nats");
    assertThat(dynamoProcesses(unset)).isNotEmpty().allSatisfy(q -> assertThat(q.env()).containsEntry("DYN_EVENT_PLANE", "nats"));
    RunPlan file = plan("    discovery: file\n    requestPlane: tcp\n", "dynamo-kv", Mode.DIRECT);
    assertThat(dynamoProcesses(file)).isNotEmpty().allSatisfy(q -> assertThat(q.env()).containsEntry("DYN_EVENT_PLANE", "zmq"));
    assertThat(plan("    requestPlane: nats\n    eventPlane: nats\n", "dynamo-kv", Mode.SLURM).process("router").env())
        .containsEntry("NATS_SERVER", "nats://{{node:0}}:4222").containsEntry("DYN_REQUEST_PLANE", "nats").containsEntry("DYN_EVENT_PLANE", "nats");
  }

  @Test
  void fileDiscoveryKeepsTheRunDirectoryStoreAndStartsNothing() {
    RunPlan p = plan("    discovery: file\n    eventPlane: zmq\n    requestPlane: tcp\n", "dynamo-kv", Mode.DIRECT);
    assertThat(p.processes(Role.INFRA)).isEmpty();
    assertThat(p.preflight()).isEmpty();
    assertThat(p.gates()).extracting(Gate::name).containsExactly(Gates.WORKERS_HEALTH, Gates.ROUTER_READY, Gates.CANARY);
    assertThat(p.processes()).allSatisfy(q -> assertThat(q.afterGate()).isNull());
    assertThat(dynamoProcesses(p)).allSatisfy(q -> assertThat(q.env()).containsEntry("DYN_DISCOVERY_BACKEND", "file")
        .containsEntry("DYN_FILE_KV", "dynamo-discovery").doesNotContainKeys("ETCD_ENDPOINTS", "NATS_SERVER"));
    // With a NATS plane, file discovery still needs NATS (and no etcd).
    RunPlan nats = plan("    discovery: file\n    eventPlane: nats\n", "dynamo-kv", Mode.DIRECT);
    assertThat(nats.processes(Role.INFRA)).extracting(ProcessSpec::name).containsExactly("nats-server");
    assertThat(nats.process("router").env()).containsEntry("NATS_SERVER", "nats://127.0.0.1:4222").doesNotContainKey("ETCD_ENDPOINTS");
  }

  @Test
  void theClustersExecutablesAndPortsAreUsedEverywhere() {
    RunPlan p = plan("    eventPlane: nats\n", "dynamo-kv", Mode.DIRECT, """
          infra: {etcd: /opt/etcd/bin/etcd, natsServer: /opt/nats/nats-server, etcdClientPort: 23379, etcdPeerPort: 23380,
                  natsPort: 25222, natsMonitorPort: 28222}
        """);
    assertThat(p.process("etcd").argv()).startsWith("/opt/etcd/bin/etcd")
        .contains("http://127.0.0.1:23379", "http://127.0.0.1:23380", "default=http://127.0.0.1:23380");
    assertThat(p.process("etcd").ports()).containsValues(23379, 23380);
    assertThat(p.process("nats-server").argv()).startsWith("/opt/nats/nats-server").containsSequence("-p", "25222", "-m", "28222");
    assertThat(p.gates().get(0).checks()).extracting(c -> c.probe().url())
        .containsExactly("http://127.0.0.1:23379/health", "http://127.0.0.1:28222/healthz");
    assertThat(dynamoProcesses(p)).allSatisfy(q -> assertThat(q.env()).containsEntry("ETCD_ENDPOINTS", "http://127.0.0.1:23379")
        .containsEntry("NATS_SERVER", "nats://127.0.0.1:25222"));
    assertThat(p.preflight()).containsExactly(new RunPlan.Preflight("/opt/etcd/bin/etcd", 0, "spec.infra.etcd"),
        new RunPlan.Preflight("/opt/nats/nats-server", 0, "spec.infra.natsServer"));
  }

  @Test
  void theSglRouterArmStartsNeitherAndItsRouterWaitsForTheWorkers() {
    for (Mode mode : Mode.values()) {
      RunPlan p = plan("    eventPlane: nats\n    requestPlane: nats\n", "sgl-router", mode);
      assertThat(p.processes(Role.INFRA)).isEmpty();
      assertThat(p.preflight()).isEmpty();
      assertThat(p.gates()).extracting(Gate::name).doesNotContain(Gates.INFRA_READY);
      assertThat(p.process("router").afterGate()).isEqualTo(Gates.WORKERS_HEALTH);
      assertThat(p.processes(Role.WORKER)).allSatisfy(q -> assertThat(q.afterGate()).isNull());
      assertThat(p.processes()).allSatisfy(q -> assertThat(q.env()).doesNotContainKeys("ETCD_ENDPOINTS", "NATS_SERVER"));
    }
  }

  @Test
  void theSourceBuildUsesTheSeedsRustflagsAfterTheClusters() {
    BuildStage build = Examples.plan("dynamo-kv", Mode.DIRECT).builds().get(0);
    assertThat(build.env()).containsEntry("RUSTFLAGS", "-C target-cpu=native --cfg tokio_unstable");
    RunPlan withClusterFlags = plan(PLANES, "dynamo-kv", Mode.SLURM, "  env: {RUSTFLAGS: \"-C link-arg=-fuse-ld=lld\"}\n");
    assertThat(withClusterFlags.builds().get(0).env())
        .containsEntry("RUSTFLAGS", "-C link-arg=-fuse-ld=lld -C target-cpu=native --cfg tokio_unstable");
  }

  @Test
  void aPortTakenByAnotherProcessOfTheFirstNodeIsRefusedByThePlanner() {
    // The validator reports it first (InfraRulesTest); a plan of an unvalidated spec still never binds one port twice.
    String cluster = "apiVersion: srt.dev/v1alpha1\nkind: GpuCluster\nmetadata: {name: h100-box}\n"
        + "spec: {mode: direct, transport: local, workDir: /scratch/srt, infra: {etcdPeerPort: 8000}}\n";
    LoadedResources r = LoadedResources.parse("inline.yaml", Examples.exampleYaml() + "\n---\n" + cluster);
    assertThat(r.problems()).anyMatch(dev.srt.operator.config.Problem::isError);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Planner.plan(r.comparisons().get(0), r.clusters().get(0), "dynamo-kv", null))
        .hasMessageContaining("etcd and router would both bind port 8000");
  }
}
