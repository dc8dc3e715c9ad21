package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.srt.operator.api.Mode;
import dev.srt.operator.config.LoadedResources;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Prefill/decode topologies of Dynamo arms: GPUs, ports, engine flags, sidecars and gates per role. */
class DisaggregatedTopologyTest {
  static final Path OWN_NODES = Path.of("src/test/resources/fixtures/valid/dynamo-prefill-decode-own-nodes.yaml");
  static final Path SHARED_NODE = Path.of("src/test/resources/fixtures/valid/dynamo-prefill-decode-shared-node.yaml");

  static RunPlan plan(Path fixture, String arm, Mode mode) {
    LoadedResources r = Examples.load(fixture);
    return Planner.plan(r.comparisons().get(0), r.clusters().isEmpty() ? null : r.clusters().get(0), arm, mode);
  }

  static String argv(ProcessSpec p) {
    return String.join(" ", p.argv());
  }

  @Test
  void onASharedNodeDecodeGpusAndPortsFollowThePrefillOnes() {
    Topology t = plan(SHARED_NODE, "dynamo-kv", Mode.DIRECT).topology();
    assertThat(t.nodes()).isEqualTo(1);
    assertThat(t.gpusPerWorker()).isNull();
    assertThat(t.gpusPerPrefill()).isEqualTo(2);
    assertThat(t.gpusPerDecode()).isEqualTo(4);
    assertThat(t.workers()).extracting(WorkerSlot::name, WorkerSlot::node, WorkerSlot::gpus)
        .containsExactly(tuple("worker-prefill-0", 0, List.of(0, 1)), tuple("worker-prefill-1", 0, List.of(2, 3)),
            tuple("worker-decode-0", 0, List.of(4, 5, 6, 7)));
    // HTTP counts the workers of the node, bootstrap its prefill workers, the rest the workers of the run.
    assertThat(t.workers()).extracting(w -> w.ports()).containsExactly(
        new PortMap(6100, 5200, 7500, 17500, 40000, 7200),
        new PortMap(6132, 5201, 7501, 17501, 40001, 7201),
        new PortMap(6164, 5202, 7502, 17502, 40002, null));
  }

  @Test
  void onNodesOfTheirOwnEachRolePacksItsNodes() {
    RunPlan p = plan(OWN_NODES, "dynamo-kv", Mode.SLURM);
    assertThat(p.slurm().nodes()).isEqualTo(2);
    assertThat(p.slurm().gpusPerNode()).isEqualTo(8);
    assertThat(p.topology().workers()).extracting(WorkerSlot::name, WorkerSlot::node, WorkerSlot::gpus, w -> w.ports().http(),
            w -> w.ports().bootstrap())
        .containsExactly(tuple("worker-prefill-0", 0, List.of(0, 1, 2, 3, 4, 5, 6, 7), 6100, 7200),
            tuple("worker-decode-0", 1, List.of(0, 1, 2, 3), 6100, null),
            tuple("worker-decode-1", 1, List.of(4, 5, 6, 7), 6132, null));
    // A whole-node prefill worker gets no CUDA_VISIBLE_DEVICES; the half-node decode workers do.
    assertThat(p.process("engine-prefill-0").env()).doesNotContainKey("CUDA_VISIBLE_DEVICES");
    assertThat(p.process("engine-decode-1").env()).containsEntry("CUDA_VISIBLE_DEVICES", "4,5,6,7");
  }

  @Test
  void enginesRunTheirRoleWithTheirRolesFlagsOverTheSharedOnes() {
    RunPlan p = plan(OWN_NODES, "dynamo-kv", Mode.SLURM);
    String prefill = argv(p.process("engine-prefill-0"));
    String decode = argv(p.process("engine-decode-0"));
    assertThat(prefill).contains("--disaggregation-mode prefill --disaggregation-bootstrap-port 7200 --skip-server-warmup")
        .contains("--chunked-prefill-size 8192").contains("--tensor-parallel-size 8").doesNotContain("--tensor-parallel-size 4")
        .contains("--disaggregation-transfer-backend nixl").contains("--page-size 64");
    assertThat(decode).contains("--disaggregation-mode decode --skip-server-warmup").doesNotContain("bootstrap-port")
        .doesNotContain("chunked-prefill-size").contains("--tensor-parallel-size 4").contains("--disaggregation-transfer-backend nixl");
    assertThat(p.process("engine-prefill-0").ports()).containsEntry("bootstrap", 7200);
    assertThat(p.process("engine-decode-0").ports()).doesNotContainKey("bootstrap");
  }

  @Test
  void eachEngineIsCoupledToItsSidecarAndOnlyPrefillSidecarsAdvertiseABootstrapHost() {
    RunPlan p = plan(OWN_NODES, "dynamo-kv", Mode.SLURM);
    assertThat(p.processes(Role.SIDECAR)).extracting(ProcessSpec::name, ProcessSpec::group, ProcessSpec::node)
        .containsExactly(tuple("sidecar-prefill-0", "worker-prefill-0", 0), tuple("sidecar-decode-0", "worker-decode-0", 1),
            tuple("sidecar-decode-1", "worker-decode-1", 1));
    assertThat(p.process("sidecar-prefill-0").argv()).containsSequence("--bootstrap-host", "{{node:0}}")
        .containsSequence("--grpc-endpoint", "127.0.0.1:50051");
    assertThat(p.process("sidecar-decode-0").argv()).doesNotContain("--bootstrap-host").doesNotContain("--disaggregation-mode");
    assertThat(plan(SHARED_NODE, "dynamo-kv", Mode.DIRECT).process("sidecar-prefill-1").argv())
        .containsSequence("--bootstrap-host", "127.0.0.1").endsWith("--grpc-connections", "4");
  }

  @Test
  void theInProcessWorkerRunsItsRoleToo() {
    RunPlan p = plan(OWN_NODES, "dynamo-in-process", Mode.SLURM);
    assertThat(p.processes(Role.WORKER)).extracting(ProcessSpec::name).containsExactly("worker-prefill-0", "worker-decode-0", "worker-decode-1");
    assertThat(argv(p.process("worker-prefill-0"))).contains("-m dynamo.sglang ")
        .contains("--disaggregation-mode prefill --disaggregation-bootstrap-port 7200").doesNotContain("--skip-server-warmup");
    assertThat(argv(p.process("worker-decode-1"))).contains("--disaggregation-mode decode");
  }

  @Test
  void readinessCountsPrefillAndDecodeInstancesApart() {
    RunPlan p = plan(OWN_NODES, "dynamo-kv", Mode.SLURM);
    Gate health = gate(p, Gates.WORKERS_HEALTH);
    assertThat(health.checks()).extracting(Gate.Check::target).containsExactly("worker-prefill-0", "worker-decode-0", "worker-decode-1");
    Gate router = gate(p, Gates.ROUTER_READY);
    assertThat(router.name()).isEqualTo(Gates.ROUTER_READY);
    assertThat(router.checks()).extracting(c -> c.probe().kind(), c -> c.probe().count()).containsExactly(
        tuple(Probe.Kind.DYNAMO_INSTANCES, 2), tuple(Probe.Kind.DYNAMO_PREFILL_INSTANCES, 1), tuple(Probe.Kind.JSON_TRUE, null));
    assertThat(p.process("router").probe().count()).isEqualTo(2);
    // An aggregated arm keeps its one instance count.
    assertThat(gate(Examples.plan("dynamo-kv", Mode.DIRECT), Gates.ROUTER_READY).checks()).extracting(c -> c.probe().kind())
        .doesNotContain(Probe.Kind.DYNAMO_PREFILL_INSTANCES);
  }

  @Test
  void followerRanksOfAMultiNodePrefillWorkerRunTheSameRole() throws Exception {
    String yaml = java.nio.file.Files.readString(Examples.DISAGG)
        .replace("resources: {prefillWorkers: 1, decodeWorkers: 1, gpusPerPrefill: 4, gpusPerDecode: 4}",
            "resources: {prefillNodes: 2, decodeNodes: 1, prefillWorkers: 1, decodeWorkers: 2, gpusPerPrefill: 16, gpusPerDecode: 4}");
    LoadedResources r = Examples.parse(yaml);
    RunPlan p = Planner.plan(r.comparisons().get(0), Examples.cluster(Examples.SLURM_CLUSTER), "dynamo-kv", Mode.SLURM);
    assertThat(p.slurm().nodes()).isEqualTo(3);
    assertThat(p.processes(Role.ENGINE)).extracting(ProcessSpec::name, ProcessSpec::node).containsExactly(
        tuple("engine-prefill-0", 0), tuple("engine-prefill-0-rank-1", 1), tuple("engine-decode-0", 2), tuple("engine-decode-1", 2));
    assertThat(argv(p.process("engine-prefill-0-rank-1")))
        .contains("--nnodes 2 --node-rank 1 --dist-init-addr {{node:0}}:8300")
        .contains("--disaggregation-mode prefill --disaggregation-bootstrap-port 7200").doesNotContain("--grpc-port");
  }

  /**
   * The multi-node P/D example: each role on a node of its own, and everything a Dynamo process
   * must reach from either node (etcd, nats-server, the frontend) on the first node, by its address.
   */
  @Test
  void theMultiNodeExamplePutsEachRoleOnItsNodeAndTheInfrastructureOnTheFirst() {
    LoadedResources r = Examples.load(Path.of("examples/router-comparison-disagg-multinode.yaml"));
    for (String arm : List.of("dynamo-kv", "dynamo-kv-policy")) {
      RunPlan p = Planner.plan(r.comparisons().get(0), Examples.cluster(Examples.SLURM_CLUSTER), arm, Mode.SLURM);
      assertThat(p.slurm().nodes()).isEqualTo(2);
      assertThat(p.processes()).filteredOn(x -> x.role() == Role.INFRA || x.role() == Role.ROUTER || x.role() == Role.BENCHMARK)
          .extracting(ProcessSpec::name, ProcessSpec::node)
          .containsExactlyInAnyOrder(tuple("etcd", 0), tuple("nats-server", 0), tuple("router", 0), tuple("benchmark", 0));
      assertThat(p.processes(Role.ENGINE)).extracting(ProcessSpec::name, ProcessSpec::node, ProcessSpec::gpus)
          .containsExactly(tuple("engine-prefill-0", 0, List.of(0, 1, 2, 3, 4, 5, 6, 7)),
              tuple("engine-decode-0", 1, List.of(0, 1, 2, 3, 4, 5, 6, 7)));
      assertThat(p.process("sidecar-prefill-0").argv()).containsSequence("--bootstrap-host", "{{node:0}}");
      for (String name : List.of("sidecar-prefill-0", "sidecar-decode-0", "router")) {
        assertThat(p.process(name).env()).as(arm + " " + name)
            .containsEntry("ETCD_ENDPOINTS", "http://{{node:0}}:2379").containsEntry("NATS_SERVER", "nats://{{node:0}}:4222");
      }
    }
  }

  private static Gate gate(RunPlan p, String name) {
    return p.gates().stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
  }
}
