package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.Mode;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where the scripts start what: a Dynamo arm's etcd and NATS first (after the check of their
 * executables, before any build), its workers and router once they serve; sgl-router after every
 * worker is healthy.
 */
class InfraScriptsTest {
  private static final String NATS = Examples.exampleYaml().replace("    eventPlane: zmq\n    requestPlane: tcp\n",
      "    eventPlane: nats\n    requestPlane: nats\n");

  private static RunPlan plan(String yaml, String arm, String cluster) {
    LoadedResources r = Examples.parse(yaml + "\n---\n" + cluster);
    return Planner.plan(r.comparisons().get(0), r.clusters().get(0), arm, null);
  }

  private static final String DOCKER = """
      apiVersion: srt.dev/v1alpha1
      kind: GpuCluster
      metadata: {name: h100-box}
      spec:
        mode: direct
        transport: local
        workDir: /scratch/srt
        container: {runtime: docker, image: "lmsysorg/sglang:dev"}
        infra: {etcd: /opt/etcd/bin/etcd, natsServer: nats-server, etcdClientPort: 23379, natsPort: 25222}
      """;

  private static final String SLURM = """
      apiVersion: srt.dev/v1alpha1
      kind: GpuCluster
      metadata: {name: h100-box}
      spec:
        mode: slurm
        transport: local
        workDir: /scratch/srt
        infra: {etcd: /opt/etcd/bin/etcd, etcdClientPort: 23379, natsPort: 25222}
      """;

  private static List<String> lines(String script) {
    return script.lines().toList();
  }

  private static int indexOf(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(prefix)) {
        return i;
      }
    }
    throw new AssertionError("no line starting with " + prefix);
  }

  /** Upstream: test_direct_arm2_couples_engine_and_sidecar_lifecycles (the environment half of it). */
  @Test
  void directArm2CouplesEngineAndSidecarLifecycles() {
    List<String> script = lines(Scripts.render(Examples.plan("dynamo-kv", Mode.DIRECT)));
    String worker1 = script.get(indexOf(script, "srt_start worker-1 "));
    assertThat(worker1).contains("ETCD_ENDPOINTS=http://127.0.0.1:2379", "DYN_EVENT_PLANE=zmq",
        "\"endpoint\":\"tcp://*:5201\"", "--grpc-port 50052", "-m dynamo.sglang.sidecar --grpc-endpoint 127.0.0.1:50052",
        "\"$SRT_SIDECAR_SUPERVISOR\"").doesNotContain("-m dynamo.sglang ", "NATS_SERVER");
    assertThat(String.join("\n", script)).contains("wait -n \"${ENGINE_PID}\" \"${SIDECAR_PID}\"");
  }

  @Test
  void etcdStartsFirstAndEverythingElseOnceItServes() {
    List<String> script = lines(Scripts.render(Examples.plan("dynamo-kv", Mode.DIRECT)));
    int preflight = indexOf(script, "srt_preflight etcd spec.infra.etcd");
    int building = indexOf(script, "srt_phase building");
    int etcd = indexOf(script, "srt_start etcd infra logs/etcd.log etcd --data-dir infra/etcd ");
    int gate = indexOf(script, "srt_gate infra-ready 300");
    int passed = indexOf(script, "srt_gate_passed infra-ready");
    int worker0 = indexOf(script, "srt_start worker-0 ");
    int router = indexOf(script, "srt_start router ");
    int workersGate = indexOf(script, "srt_gate workers-health");
    assertThat(List.of(preflight, building, etcd, gate, passed, worker0, router, workersGate)).isSorted();
    assertThat(script.get(gate + 1)).isEqualTo("srt_wait etcd infra http-status http://127.0.0.1:2379/health 200");
    // The run's ports, etcd's included, are free before anything starts.
    assertThat(script.get(indexOf(script, "srt_wait_ports_free "))).startsWith("srt_wait_ports_free 2379 2380 5200 ");
    // The run's own gates keep the health timeout.
    assertThat(script).contains("srt_gate workers-health", "srt_gate router-ready");
  }

  @Test
  void sglRouterStartsOnceEveryWorkerIsHealthy() {
    List<String> script = lines(Scripts.render(Examples.plan("sgl-router", Mode.SLURM)));
    int worker1 = indexOf(script, "srt_start worker-1 ");
    int passed = indexOf(script, "srt_gate_passed workers-health");
    int router = indexOf(script, "srt_start router ");
    int routerGate = indexOf(script, "srt_gate router-ready");
    assertThat(List.of(worker1, passed, router, routerGate)).isSorted();
    assertThat(router).isEqualTo(passed + 1);
    assertThat(script).noneMatch(l -> l.startsWith("srt_start etcd") || l.startsWith("srt_start nats-server") || l.startsWith("srt_preflight "));
    assertThat(script).filteredOn(l -> l.startsWith("srt_start ")).noneMatch(l -> l.contains("ETCD_ENDPOINTS") || l.contains("NATS_SERVER"));
  }

  @Test
  void natsPlanesStartNatsServerBesideEtcdOnTheFirstNode() {
    List<String> script = lines(Scripts.render(plan(NATS, "dynamo-kv", SLURM)));
    String nats = script.get(indexOf(script, "srt_start nats-server infra logs/nats-server.log "));
    assertThat(nats).contains("--relative=0").endsWith("nats-server -js -a 0.0.0.0 -p 25222 -m 8222 -sd infra/nats");
    String etcd = script.get(indexOf(script, "srt_start etcd infra logs/etcd.log "));
    assertThat(etcd).endsWith("/opt/etcd/bin/etcd --data-dir infra/etcd --listen-client-urls http://0.0.0.0:23379"
        + " --advertise-client-urls http://\"${SRT_NODE_ADDR[0]}\":23379 --listen-peer-urls http://127.0.0.1:2380"
        + " --initial-advertise-peer-urls http://127.0.0.1:2380 --initial-cluster default=http://127.0.0.1:2380");
    int gate = indexOf(script, "srt_gate infra-ready 300");
    assertThat(script.subList(gate + 1, gate + 3)).containsExactly(
        "srt_wait etcd infra http-status http://127.0.0.1:23379/health 200",
        "srt_wait nats-server infra http-status http://127.0.0.1:8222/healthz 200");
    assertThat(script.get(indexOf(script, "srt_start router "))).contains(
        "ETCD_ENDPOINTS=http://\"${SRT_NODE_ADDR[0]}\":23379", "NATS_SERVER=nats://\"${SRT_NODE_ADDR[0]}\":25222",
        "DYN_EVENT_PLANE=nats", "DYN_REQUEST_PLANE=nats");
    // On Slurm the batch script runs on the first node, where the services run: checked there.
    assertThat(script).contains("srt_preflight /opt/etcd/bin/etcd spec.infra.etcd", "srt_preflight nats-server spec.infra.natsServer");
  }

  @Test
  void inADockerContainerTheExecutablesAreCheckedAndRunInTheImageWithTheHostPathMounted() {
    List<String> script = lines(Scripts.render(plan(NATS, "dynamo-kv", DOCKER)));
    String etcdCheck = script.get(indexOf(script, "srt_preflight /opt/etcd/bin/etcd spec.infra.etcd docker run "));
    assertThat(etcdCheck).contains("--volume /opt/etcd/bin/etcd:/opt/etcd/bin/etcd", "lmsysorg/sglang:dev bash --norc --noprofile -c ",
        "srt-preflight /opt/etcd/bin/etcd");
    String natsCheck = script.get(indexOf(script, "srt_preflight nats-server spec.infra.natsServer docker run "));
    assertThat(natsCheck).doesNotContain("--volume nats-server");
    String etcd = script.get(indexOf(script, "srt_start etcd infra "));
    assertThat(etcd).contains("docker run", "--volume /opt/etcd/bin/etcd:/opt/etcd/bin/etcd", "--network host")
        .doesNotContain("--gpus");
    // Workers never mount it: their commands stay those of the other arms.
    assertThat(script.get(indexOf(script, "srt_start worker-0 "))).doesNotContain("/opt/etcd");
  }
}
