package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Prefill/decode topologies: what Dynamo arms accept, and what is rejected with its field path and why. */
class DisaggregatedRulesTest {
  static final Path EXAMPLE = Path.of("examples/router-comparison-disagg.yaml");
  static final String RESOURCES = "resources: {prefillWorkers: 1, decodeWorkers: 1, gpusPerPrefill: 4, gpusPerDecode: 4}";
  static final String ARGS = "args: {tensor-parallel-size: 4, page-size: 64, enable-metrics: true, disaggregation-transfer-backend: nixl}";

  /** The problems of the example with {@code from} replaced by {@code to}, on {@code cluster} when not null. */
  private static List<Problem> problems(String from, String to, Path cluster) throws Exception {
    String yaml = Files.readString(EXAMPLE);
    assertThat(yaml).contains(from);
    String text = yaml.replace(from, to) + (cluster == null ? "" : "---\n" + Files.readString(cluster));
    return LoadedResources.parse("cmp.yaml", text).problems();
  }

  private static List<Problem> problems(String from, String to) throws Exception {
    return problems(from, to, null);
  }

  @Test
  void theExampleIsValidOnTheEmulatedAndTheDirectHostAndOnSlurm() throws Exception {
    for (String cluster : List.of("examples/local-emulated-cluster.yaml", "examples/gpu-cluster-direct.yaml", "examples/gpu-cluster-slurm.yaml")) {
      assertThat(problems(RESOURCES, RESOURCES, Path.of(cluster))).as(cluster).isEmpty();
    }
  }

  @Test
  void withoutGpuCountsBothRolesShareTheNodeEvenly() throws Exception {
    assertThat(problems(RESOURCES, "resources: {prefillWorkers: 1, decodeWorkers: 1}")).isEmpty();
    assertThat(DisaggregatedFit.of(LoadedResources.parse("x.yaml", Files.readString(EXAMPLE).replace(RESOURCES,
        "resources: {prefillWorkers: 3, decodeWorkers: 1}")).comparisons().get(0).getSpec().resources, 8))
        .satisfies(f -> {
          assertThat(f.sharedNode()).isTrue();
          assertThat(f.prefill().gpusPerWorker()).isEqualTo(2);
          assertThat(f.decode().gpusPerWorker()).isEqualTo(2);
          assertThat(f.nodes()).isEqualTo(1);
        });
  }

  @Test
  void nodesOfTheirOwnNeedSlurmNotADirectHost() throws Exception {
    String own = "resources: {prefillNodes: 1, decodeNodes: 1, prefillWorkers: 1, decodeWorkers: 2, gpusPerPrefill: 8, gpusPerDecode: 4}";
    assertThat(problems(RESOURCES, own, Path.of("examples/gpu-cluster-slurm.yaml"))).filteredOn(Problem::isError).isEmpty();
    assertThat(problems(RESOURCES, own, Path.of("examples/gpu-cluster-direct.yaml"))).filteredOn(Problem::isError)
        .extracting(Problem::path, Problem::message)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.resources", "a direct-mode cluster is one host: the topology needs 2 nodes"));
  }

  @Test
  void aPrefillWorkerThatDoesNotTakeWholeNodesIsRejectedAtItsField() throws Exception {
    assertThat(problems(RESOURCES, "resources: {prefillNodes: 2, decodeNodes: 1, prefillWorkers: 1, decodeWorkers: 1, gpusPerPrefill: 12}"))
        .filteredOn(Problem::isError).extracting(Problem::path, Problem::message)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.resources.gpusPerPrefill",
            "12 GPUs per worker span nodes of 8: a multi-node worker takes whole nodes, so use a multiple of 8"));
  }

  @Test
  void eachRolesParallelismIsCheckedAgainstItsOwnGpus() throws Exception {
    List<Problem> p = problems(RESOURCES, "resources: {prefillWorkers: 1, decodeWorkers: 2, gpusPerPrefill: 4, gpusPerDecode: 2}");
    assertThat(p).singleElement().satisfies(w -> {
      assertThat(w.isError()).isFalse();
      assertThat(w.path()).isEqualTo("spec.backend.args.tensor-parallel-size");
      assertThat(w.message()).isEqualTo("tensor x pipeline parallel = 4 x 1 = 4 GPUs, but each decode worker is given 2 "
          + "(spec.resources): the engine would need more GPUs than it has");
    });
    // The role's own degree replaces the shared one, and a warning names the role's key.
    assertThat(problems("decodeArgs: {max-running-requests: 256}", "decodeArgs: {tensor-parallel-size: 2}")).singleElement()
        .satisfies(w -> assertThat(w.path()).isEqualTo("spec.backend.decodeArgs.tensor-parallel-size"));
    assertThat(problems(RESOURCES + "\n", "resources: {prefillWorkers: 1, decodeWorkers: 2, gpusPerPrefill: 4, gpusPerDecode: 2}\n")
        .stream().map(Problem::path)).doesNotContain("spec.backend.prefillArgs.tensor-parallel-size");
  }

  @Test
  void theSidecarGrpcRangeMustAvoidTheBootstrapPorts() throws Exception {
    List<Problem> p = problems("eventPlane: zmq", "eventPlane: zmq\n    sidecarPort: 7199");
    assertThat(p).filteredOn(Problem::isError).singleElement().satisfies(e -> {
      assertThat(e.path()).isEqualTo("spec.dynamo.sidecarPort");
      assertThat(e.message()).startsWith("sidecar gRPC ports 7199-7200 (sidecarPort + worker index) collide with the prefill bootstrap ports 7200");
    });
  }

  @Test
  void perRoleFlagsAreCheckedLikeTheSharedOnes() throws Exception {
    assertThat(problems("prefillArgs: {chunked-prefill-size: 8192}", "prefillArgs: {port: 9000, chunked-prefill-size: 8192}"))
        .filteredOn(Problem::isError).extracting(Problem::path).containsExactly("spec.backend.prefillArgs.port");
    assertThat(problems("prefillArgs: {chunked-prefill-size: 8192}", "prefillArgs: {chunked-prefil-size: 8192}"))
        .extracting(Problem::path).containsExactly("spec.backend.prefillArgs.chunked-prefil-size");
  }

  @Test
  void theSglRouterArmStillRejectsPrefillDecode() throws Exception {
    List<Problem> p = problems("  arms:\n", "  arms:\n  - name: sgl-router\n    frontend: {type: sgl-router}\n");
    assertThat(p).filteredOn(Problem::isError).extracting(Problem::path, Problem::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.arms[0].frontend.type", "frontend.type: sgl-router routes an aggregate worker pool only; "
            + "frontend.type: dynamo routes prefill and decode workers (remove the prefill/decode resources)"));
  }
}
