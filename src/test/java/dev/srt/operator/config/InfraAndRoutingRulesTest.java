package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rules of the infra ports against a comparison's port table, the sgl-router policy names, the
 * Dynamo frontend's router modes, and the warning for KV-aware routing without KV events, each with its field path.
 */
class InfraAndRoutingRulesTest {
  private static final String KV_EVENTS = "    kvEvents: {publisher: zmq, topic: kv-events}\n";

  private static String example() {
    try {
      return Files.readString(Path.of("examples/router-comparison.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Problem> problems(String comparison, String clusterSpec) {
    String cluster = """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec:
          mode: direct
          transport: local
          workDir: /scratch/srt
        """ + clusterSpec;
    LoadedResources r = LoadedResources.parse("inline.yaml", comparison + "\n---\n" + cluster);
    RouterComparison rc = r.comparisons().get(0);
    GpuCluster c = r.clusters().get(0);
    return Validator.validate(rc, c);
  }

  private static List<Problem> problems(String comparison) {
    return problems(comparison, "");
  }

  @Test
  void theExampleWithItsClusterHasNoProblem() {
    assertThat(problems(example())).isEmpty();
  }

  @Test
  void infraPortsMustStayOutOfTheWorkersPortTable() {
    assertThat(problems(example(), "  infra: {etcdClientPort: 6132}\n")).filteredOn(Problem::isError).singleElement().satisfies(e -> {
      assertThat(e.path()).isEqualTo("spec.dynamo");
      assertThat(e.message()).contains("etcd client port (spec.infra.etcdClientPort) of GpuCluster h100-box is 6132",
          "worker HTTP ports 6100-6163", "move it in the GpuCluster's spec.infra");
    });
    assertThat(problems(example(), "  infra: {etcdPeerPort: 50052}\n")).filteredOn(Problem::isError).singleElement()
        .satisfies(e -> assertThat(e.message()).contains("sidecar gRPC ports 50051-50052"));
    // NATS ports matter only when a plane uses NATS.
    assertThat(problems(example(), "  infra: {natsMonitorPort: 8000}\n")).noneMatch(Problem::isError);
    String nats = example().replace("    eventPlane: zmq\n", "    eventPlane: nats\n");
    assertThat(problems(nats, "  infra: {natsMonitorPort: 8000}\n")).filteredOn(Problem::isError).singleElement()
        .satisfies(e -> assertThat(e.message()).contains("NATS monitoring port (spec.infra.natsMonitorPort)", "router port 8000"));
    // Without a cluster the default ports are checked: a sidecar range over etcd's client port.
    String sidecarOnEtcd = example().replace("    requestPlane: tcp\n", "    requestPlane: tcp\n    sidecarPort: 2378\n");
    RouterComparison alone = LoadedResources.parse("inline.yaml", sidecarOnEtcd).comparisons().get(0);
    assertThat(Validator.validate(alone, null)).filteredOn(Problem::isError).singleElement().satisfies(e -> assertThat(e.message())
        .contains("etcd client port (spec.infra.etcdClientPort) of the default GpuCluster is 2379, inside the sidecar gRPC ports 2378-2379"));
    // etcd's ports are free with file discovery.
    String file = example().replace("    eventPlane: zmq\n", "    discovery: file\n    eventPlane: zmq\n");
    assertThat(problems(file, "  infra: {etcdClientPort: 8000}\n")).noneMatch(Problem::isError);
  }

  @Test
  void sglRouterPoliciesAreTheRoutersOwn() {
    String typo = example().replace("args: {policy: cache_aware}", "args: {policy: cache-aware}");
    assertThat(problems(typo)).filteredOn(Problem::isError).singleElement().satisfies(e -> {
      assertThat(e.path()).isEqualTo("spec.arms[0].frontend.args.policy");
      assertThat(e.message()).contains("cache-aware is not a policy of sgl-router", "round_robin", "cache_aware_zmq");
    });
    for (String policy : List.of("round_robin", "power_of_n", "cache_aware_zmq", "power_of_two", "sticky")) {
      assertThat(problems(example().replace("args: {policy: cache_aware}", "args: {policy: " + policy + "}"))).as(policy).isEmpty();
    }
  }

  /** The Dynamo frontend refuses an unknown --router-mode only after the install and the workers: the validator says so first. */
  @Test
  void dynamoRouterModesAreTheFrontendsOwn() {
    String arm1 = "frontend: {type: dynamo, args: {router-mode: kv}}\n    dynamo: {sidecar: {enabled: true}}";
    assertThat(example()).contains(arm1);
    String typo = example().replace(arm1, arm1.replace("router-mode: kv", "router-mode: kv-aware"));
    assertThat(problems(typo)).filteredOn(Problem::isError).singleElement().satisfies(e -> {
      assertThat(e.path()).isEqualTo("spec.arms[1].frontend.args.router-mode");
      assertThat(e.message()).isEqualTo("kv-aware is not a router mode of the Dynamo frontend; its modes are round-robin, random, "
          + "power-of-two, kv, direct, least-loaded, device-aware-weighted");
    });
    // the path names the key as written
    String underscore = example().replace(arm1, arm1.replace("router-mode: kv", "router_mode: cache_aware"));
    assertThat(problems(underscore)).filteredOn(Problem::isError).singleElement()
        .satisfies(e -> assertThat(e.path()).isEqualTo("spec.arms[1].frontend.args.router_mode"));
    for (String mode : List.of("round-robin", "random", "kv", "power-of-two", "least-loaded")) {
      assertThat(problems(example().replace(arm1, arm1.replace("router-mode: kv", "router-mode: " + mode)))).as(mode).isEmpty();
    }
  }

  @Test
  void kvAwareRoutingWithoutKvEventsIsAWarningAtTheChoice() {
    String noEvents = example().replace(KV_EVENTS, "");
    assertThat(problems(noEvents)).extracting(Problem::path)
        .containsExactlyInAnyOrder("spec.arms[0].frontend.args.policy", "spec.arms[1].frontend.args.router-mode",
            "spec.arms[2].frontend.args.router-mode");
    assertThat(problems(noEvents)).allSatisfy(w -> {
      assertThat(w.isError()).isFalse();
      assertThat(w.message()).contains("spec.backend.kvEvents is not set");
    });
    String disabled = example().replace(KV_EVENTS, "    kvEvents: {enabled: false}\n");
    assertThat(problems(disabled)).hasSize(3).allSatisfy(w -> assertThat(w.message()).contains("spec.backend.kvEvents is disabled"));
    // Load-only choices need no events; nor does Dynamo's approximate KV mode.
    String loadOnly = noEvents.replace("args: {policy: cache_aware}", "args: {policy: power_of_n}")
        .replace("frontend: {type: dynamo, args: {router-mode: kv}}", "frontend: {type: dynamo, args: {router-mode: kv, router-kv-events: false}}");
    assertThat(problems(loadOnly)).isEmpty();
    // A scoring policy routes on the cache through its prefix_cache term (one of its defaults).
    assertThat(problems(noEvents.replace("args: {policy: cache_aware}", "args: {policy: fused_score}"))).extracting(Problem::path)
        .contains("spec.arms[0].frontend.args.policy");
    assertThat(problems(noEvents.replace("args: {policy: cache_aware}", "args: {policy: fused_score, fuse: load_based}")))
        .extracting(Problem::path).doesNotContain("spec.arms[0].frontend.args.policy");
  }
}
