package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Workers larger than a node: a leader rank that is the worker, and follower ranks on the further nodes. */
class MultiNodeWorkersTest {
  static final Path FIXTURE = Path.of("src/test/resources/fixtures/valid/slurm-multi-node-workers.yaml");

  static RunPlan plan(String arm) {
    LoadedResources r = Examples.load(FIXTURE);
    return Planner.plan(r.comparisons().get(0), r.clusters().get(0), arm, null);
  }

  /** argv without the value after {@code --node-rank}. */
  static List<String> withoutRank(List<String> argv) {
    List<String> out = new ArrayList<>(argv);
    int i = out.indexOf("--node-rank");
    out.remove(i + 1);
    return out;
  }

  @Test
  void eachWorkerSpansWholeNodesWithOneRankPerNode() {
    RunPlan p = plan("sgl-router");
    assertThat(p.slurm().nodes()).isEqualTo(4);
    assertThat(p.slurm().gpusPerNode()).isEqualTo(8);
    assertThat(p.processes(Role.WORKER)).extracting(ProcessSpec::name, ProcessSpec::node)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("worker-0", 0), org.assertj.core.groups.Tuple.tuple("worker-0-rank-1", 1),
            org.assertj.core.groups.Tuple.tuple("worker-1", 2), org.assertj.core.groups.Tuple.tuple("worker-1-rank-1", 3));
    ProcessSpec leader = p.process("worker-1");
    ProcessSpec follower = p.process("worker-1-rank-1");
    assertThat(String.join(" ", leader.argv())).contains("--nnodes 2 --node-rank 0 --dist-init-addr {{node:2}}:8300");
    assertThat(String.join(" ", follower.argv())).contains("--nnodes 2 --node-rank 1 --dist-init-addr {{node:2}}:8300");
    assertThat(withoutRank(follower.argv())).isEqualTo(withoutRank(leader.argv()));
    // Whole nodes: no CUDA_VISIBLE_DEVICES; the follower has no HTTP endpoint and no probe.
    assertThat(leader.env()).doesNotContainKey("CUDA_VISIBLE_DEVICES");
    assertThat(follower.gpus()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(follower.probe()).isNull();
    assertThat(follower.ports()).isEmpty();
  }

  @Test
  void theRouterAndTheGatesSeeOnlyTheLeaders() {
    RunPlan p = plan("sgl-router");
    List<String> argv = p.process("router").argv();
    assertThat(argv.subList(argv.indexOf("--worker-urls") + 1, argv.indexOf("--host")))
        .containsExactly("http://{{node:0}}:6100", "http://{{node:2}}:6100");
    Gate health = p.gates().stream().filter(g -> g.name().equals(Gates.WORKERS_HEALTH)).findFirst().orElseThrow();
    assertThat(health.checks()).extracting(Gate.Check::target).containsExactly("worker-0", "worker-1");
  }

  @Test
  void dynamoFollowersRunTheEngineOnlyAndArmsKeepIdenticalWorkers() {
    RunPlan p = plan("dynamo-kv");
    assertThat(p.processes(Role.ENGINE)).extracting(ProcessSpec::name)
        .containsExactly("engine-0", "engine-0-rank-1", "engine-1", "engine-1-rank-1");
    assertThat(p.processes(Role.SIDECAR)).extracting(ProcessSpec::name).containsExactly("sidecar-0", "sidecar-1");
    assertThat(p.process("engine-0").argv()).contains("--grpc-port");
    assertThat(p.process("engine-0-rank-1").argv()).doesNotContain("--grpc-port").contains("--node-rank");
    assertThat(p.process("engine-0-rank-1").group()).isNull();
    // The legacy in-process worker: every rank runs dynamo.sglang, the leader is probed on its system port.
    RunPlan legacy = plan("dynamo-legacy");
    assertThat(legacy.processes(Role.WORKER)).extracting(ProcessSpec::name)
        .containsExactly("worker-0", "worker-0-rank-1", "worker-1", "worker-1-rank-1");
    assertThat(legacy.process("worker-0-rank-1").argv()).contains("dynamo.sglang");
  }

  @Test
  void aWorkerThatDoesNotTakeWholeNodesIsRejected() {
    String yaml = Examples.exampleYaml().replace("resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}",
        "resources: {aggNodes: 3, aggWorkers: 2, gpusPerWorker: 12}");
    assertThat(yaml).contains("gpusPerWorker: 12");
    LoadedResources r = LoadedResources.parse("inline.yaml", yaml);
    List<Problem> problems = Validator.validate(r.comparisons().get(0), Examples.cluster(Examples.SLURM_CLUSTER));
    assertThat(problems).filteredOn(Problem::isError).extracting(Problem::toString)
        .anySatisfy(m -> assertThat(m).contains("spec.resources.gpusPerWorker").contains("multiple of 8"));
  }

  @Test
  void aMultiNodeWorkerNeedsSlurm() {
    LoadedResources r = Examples.load(FIXTURE);
    List<Problem> problems = Validator.validate(r.comparisons().get(0), Examples.cluster(Examples.DIRECT_CLUSTER));
    assertThat(problems).filteredOn(Problem::isError).extracting(Problem::toString)
        .anySatisfy(m -> assertThat(m).contains("spec.resources").contains("direct-mode cluster is one host"));
  }
}
