package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.Limits;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.cli.Main;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.PortMap;
import dev.srt.operator.plan.Topology;
import dev.srt.operator.plan.WorkerSlot;
import dev.srt.operator.testinfra.Fixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, finding 4, "crash loop for everyone": {@code aggWorkers: 160000000} validated, then
 * planning exhausted the operator's memory and it restarted forever; 901 workers put a KV-event
 * port on a worker's HTTP port; an int overflow gave a wrong "do not fit". Every count and size now
 * has a bound (api/Limits) in the validator and in the CRDs, nothing beyond them is planned, the
 * port plan has no collisions and the fit rules compute in longs.
 */
class CrashLoopBoundsTest {
  private static final Path INVALID = Fixture.ROOT.resolve("invalid");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void aggWorkers160MillionIsRejectedWithItsPathAndNothingIsPlanned() {
    Path file = INVALID.resolve("resources-workers-160-million.yaml");
    assertThat(errors(LoadedResources.load(List.of(file)))).contains(
        "spec.resources.aggWorkers: must be at most 256 (workers of one run), not 160000000");

    // The CLI stops at validation: an error with its line, no plan.
    Cli plan = cli("plan", "-f", file.toString(), "--arm", "sgl-router", "--mode", "slurm");
    assertThat(plan.code()).isEqualTo(1);
    assertThat(plan.out()).isEmpty();
    assertThat(plan.err()).contains(file + ":16: spec.resources.aggWorkers: must be at most 256");

    // Even a caller that skips validation gets a refusal, not 160 million worker slots.
    RouterComparison rc = LoadedResources.load(List.of(file)).comparisons().get(0);
    assertThatThrownBy(() -> Planner.plan(rc, null, "sgl-router", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("aggWorkers 160000000 is outside 1..256; the validator rejects such a spec");
  }

  @Test
  void nineHundredOneWorkersAreBoundedBeforeTheirPortsCollide() {
    assertThat(errors(LoadedResources.load(List.of(INVALID.resolve("resources-workers-901.yaml")))))
        .containsExactly("spec.resources.aggWorkers: must be at most 256 (workers of one run), not 901");
    // Why 256: worker 900's KV-event port is the first worker HTTP port...
    assertThat(PortMap.forWorker(900, 0, PortMap.SIDECAR_GRPC_BASE).kvEvents()).isEqualTo(PortMap.HTTP_BASE);
    // ...while at the limits every fixed range keeps to itself, below 65536.
    List<PortTable.Block> fixed = PortTable.fixed(Limits.MAX_WORKERS, Limits.MAX_GPUS_PER_NODE);
    for (PortTable.Block a : fixed) {
      assertThat(a.last()).isLessThanOrEqualTo(Limits.MAX_PORT);
      fixed.stream().filter(b -> b != a).forEach(b -> assertThat(a.overlaps(b)).as("%s and %s", a, b).isFalse());
    }
    assertThat(PortTable.fixed(901, 8).get(0).overlaps(PortTable.fixed(901, 8).get(1))).isTrue();
    assertThatThrownBy(() -> Topology.aggregated(resources(114, 901, null), 8, PortMap.SIDECAR_GRPC_BASE))
        .hasMessage("aggWorkers 901 is outside 1..256; the validator rejects such a spec");
  }

  @Test
  void theFitRulesComputeWithoutOverflow() {
    // 2^29 nodes x 8 GPUs is 2^32, which wrapped around to 0 in an int: "2 workers do not fit".
    assertThat(errors(LoadedResources.load(List.of(INVALID.resolve("resources-nodes-overflow.yaml")))))
        .containsExactly("spec.resources.aggNodes: must be at most 128 (nodes of one run), not 536870912");
    // 3 x 1431655766 GPUs is 4294967298, not 2.
    assertThat(errors(LoadedResources.load(List.of(INVALID.resolve("resources-gpus-overflow.yaml"))))).containsExactly(
        "spec.resources.gpusPerWorker: must be at most 2048 (GPUs of one worker), not 1431655766",
        "spec.resources: aggWorkers x gpusPerWorker = 4294967298 GPUs, more than aggNodes x gpusPerNode = 8");
    // 2 nodes of 2147483647 GPUs hold one worker: the cluster is out of bounds, the fit is right.
    LoadedResources both = LoadedResources.parse("big.yaml", cluster(Integer.MAX_VALUE) + "---\n" + comparison("{aggNodes: 2, aggWorkers: 1}", ""));
    assertThat(errors(both)).containsExactly("spec.gpusPerNode: must be at most 16 (GPUs per node), not 2147483647");
    // And the planner packs in ints that cannot overflow within the limits.
    assertThatThrownBy(() -> Topology.aggregated(resources(2, 1, null), Integer.MAX_VALUE, PortMap.SIDECAR_GRPC_BASE))
        .hasMessage("gpusPerNode 2147483647 is outside 1..16; the validator rejects such a spec");
  }

  @Test
  void aSidecarRangeThatMeetsAnotherRangeOfThePortPlanIsRejected() {
    String twoWorkers = "{aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}";
    assertThat(errors(LoadedResources.load(List.of(INVALID.resolve("dynamo-sidecar-port-collides.yaml"))))).containsExactly(
        "spec.dynamo.sidecarPort: sidecar gRPC ports 6120-6121 (sidecarPort + worker index) collide with the worker HTTP ports "
            + "6100-6163 of the same hosts; choose a sidecarPort whose range avoids 5200-5201, 6100-6163, 7500-7501, 8000, 8300, 17500-17501, 29000");
    Map<Integer, String> collisions = new LinkedHashMap<>();
    collisions.put(5199, "KV-event ports 5200-5201");
    collisions.put(7501, "Dynamo system ports 7500-7501");
    collisions.put(7999, "router port 8000");
    collisions.put(8300, "multi-node rendezvous port 8300");
    collisions.put(17500, "NCCL ports 17500-17501");
    collisions.put(28999, "Model Gateway Prometheus port 29000");
    collisions.forEach((base, range) -> assertThat(errors(LoadedResources.parse("rc.yaml", comparison(twoWorkers, "sidecarPort: " + base))))
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING).contains("collide with the " + range));
    for (int clear : List.of(5202, 6164, 7502, 8001, 17502, 29001, 50051, 65534)) {
      assertThat(errors(LoadedResources.parse("rc.yaml", comparison(twoWorkers, "sidecarPort: " + clear)))).as("base %d", clear).isEmpty();
    }
    // A topology that is wrong in itself is reported as such, not examined for ports.
    assertThat(errors(LoadedResources.parse("rc.yaml", comparison("{aggWorkers: 2, gpusPerWorker: 0}", "sidecarPort: 6100"))))
        .containsExactly("spec.resources.gpusPerWorker: must be at least 1");
    // The planner's own guard names both users of the port.
    assertThatThrownBy(() -> Topology.aggregated(resources(1, 2, 4), 8, 6100))
        .hasMessage("port plan: worker-0 grpc and worker-0 http would share port 6100 on node 0");
    assertThatThrownBy(() -> Topology.aggregated(resources(1, 2, 4), 8, 65535))
        .hasMessage("port plan: worker-1 grpc port 65536 on node 0 is outside 1..65535");
  }

  @Test
  void everyTopologyWithinTheLimitsHasADistinctPortForEveryProcessOfANode() {
    int planned = 0;
    for (int gpusPerNode = 1; gpusPerNode <= Limits.MAX_GPUS_PER_NODE; gpusPerNode++) {
      for (int perWorker : List.of(1, 2, 3, 4, 8, 16, 32, 64)) {
        if (perWorker > gpusPerNode && perWorker % gpusPerNode != 0) {
          continue;
        }
        for (int workers : List.of(1, 2, 7, 16, 17, 100, 255, 256)) {
          long nodes = perWorker > gpusPerNode ? (long) workers * (perWorker / gpusPerNode)
              : (workers + gpusPerNode / perWorker - 1) / (gpusPerNode / perWorker);
          if (perWorker > gpusPerNode * Limits.MAX_NODES || nodes > Limits.MAX_NODES) {
            continue;
          }
          int top = 65535 - workers + 1;
          for (int sidecar : List.of(PortMap.SIDECAR_GRPC_BASE, top)) {
            Topology t = Topology.aggregated(resources((int) nodes, workers, perWorker), gpusPerNode, sidecar);
            assertThat(t.workers()).hasSize(workers);
            assertThat(t.workers().stream().mapToInt(WorkerSlot::node).max().orElseThrow()).isLessThan((int) nodes);
            planned++;
          }
        }
      }
    }
    assertThat(planned).isGreaterThan(500);
  }

  @Test
  void stringsListsAndMapsHaveBoundsWithFieldPaths() {
    String big = "x".repeat(Limits.MAX_LONG_TEXT + 1);
    List<String> errors = errors(LoadedResources.parse("rc.yaml", comparison("{aggWorkers: 2}", "").replace(
        "  workload:\n    tool: bench-serving\n", "  workload:\n    tool: custom\n    command: " + big + "\n")));
    assertThat(errors).containsExactly("spec.workload.command: must be at most 65536 characters long, not 65537");

    RouterComparison rc = LoadedResources.parse("rc.yaml", comparison("{aggWorkers: 2}", "")).comparisons().get(0);
    for (int i = 0; i <= Limits.MAX_ENV; i++) {
      rc.getSpec().backend.env.put("V" + i, "1");
    }
    rc.getSpec().model.path = "/" + "m".repeat(Limits.MAX_PATH);
    List<Object> values = new ArrayList<>();
    for (int i = 0; i <= Limits.MAX_FLAG_VALUES; i++) {
      values.add(i);
    }
    rc.getSpec().backend.args.put("cuda-graph-bs", values);
    rc.getSpec().backend.args.put("json-model-override-args", Map.of("k", "v".repeat(Limits.MAX_LONG_TEXT)));
    rc.getSpec().arms.get(0).frontend.args.put("p".repeat(Limits.MAX_KEY + 1), true);
    assertThat(describe(Validator.validate(rc, null))).contains(
        "spec.model.path: must be at most 4096 characters long, not 4097",
        "spec.backend.env: at most 128 entries, not 129",
        "spec.backend.args.cuda-graph-bs: at most 1024 values, not 1025",
        "spec.backend.args.json-model-override-args: must be at most 65536 characters long, not 65544",
        "spec.arms[0].frontend.args: has a name of 257 characters; names are at most 256 characters long");

    GpuCluster cluster = LoadedResources.parse("c.yaml", cluster(8)).clusters().get(0);
    for (int i = 0; i <= Limits.MAX_ITEMS; i++) {
      cluster.getSpec().path.add("/opt/bin" + i);
    }
    cluster.getSpec().env.put("TOKEN", "t".repeat(Limits.MAX_TEXT + 1));
    cluster.getSpec().workDir = "/" + "w".repeat(Limits.MAX_PATH);
    assertThat(describe(Validator.validate(cluster))).contains(
        "spec.workDir: must be at most 4096 characters long, not 4097",
        "spec.path: at most 64 items, not 65",
        "spec.env.TOKEN: must be at most 4096 characters long, not 4097");
  }

  @Test
  void theGeneratedCrdsCarryTheLimits() throws IOException {
    JsonNode rc = spec("routercomparisons.srt.dev-v1.yml");
    JsonNode resources = rc.at("/properties/resources/properties");
    assertThat(resources.at("/aggWorkers/maximum").asInt()).isEqualTo(Limits.MAX_WORKERS);
    assertThat(resources.at("/aggNodes/maximum").asInt()).isEqualTo(Limits.MAX_NODES);
    assertThat(resources.at("/gpusPerWorker/maximum").asInt()).isEqualTo(Limits.MAX_GPUS_PER_WORKER);
    assertThat(rc.at("/properties/dynamo/properties/sidecarPort/maximum").asInt()).isEqualTo(Limits.MAX_PORT);
    assertThat(rc.at("/properties/workload/properties/command/maxLength").asInt()).isEqualTo(Limits.MAX_LONG_TEXT);
    assertThat(rc.at("/properties/arms/maxItems").asInt()).isEqualTo(Limits.MAX_ARMS);
    assertThat(rc.at("/properties/backend/properties/args/maxProperties").asInt()).isEqualTo(Limits.MAX_FLAGS);
    assertThat(rc.at("/properties/backend/properties/env/maxProperties").asInt()).isEqualTo(Limits.MAX_ENV);
    JsonNode gc = spec("gpuclusters.srt.dev-v1.yml");
    assertThat(gc.at("/properties/gpusPerNode/maximum").asInt()).isEqualTo(Limits.MAX_GPUS_PER_NODE);
    assertThat(gc.at("/properties/path/items/maxLength").asInt()).isEqualTo(Limits.MAX_PATH);
    assertThat(gc.at("/properties/ssh/properties/port/maximum").asInt()).isEqualTo(Limits.MAX_PORT);

    // Every string, list, map and integer of both specs has an upper bound.
    for (JsonNode s : List.of(rc, gc)) {
      List<String> walked = new ArrayList<>();
      List<String> unbounded = new ArrayList<>();
      unbounded(s, "spec", walked, unbounded);
      assertThat(walked).hasSizeGreaterThan(25);
      assertThat(unbounded).as("spec fields without an upper bound").isEmpty();
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static void unbounded(JsonNode schema, String path, List<String> walked, List<String> out) {
    walked.add(path);
    String type = schema.path("type").asText("");
    boolean bounded = switch (type) {
      case "string" -> schema.has("maxLength");
      case "integer", "number" -> schema.has("maximum");
      case "array" -> schema.has("maxItems");
      case "object" -> !schema.has("additionalProperties") || schema.has("maxProperties");
      case "boolean" -> true;
      default -> schema.has("maxProperties"); // the untyped flag maps
    };
    if (!bounded) {
      out.add(path);
    }
    schema.path("properties").fields().forEachRemaining(e -> unbounded(e.getValue(), path + "." + e.getKey(), walked, out));
    if (schema.path("items").isObject()) {
      unbounded(schema.get("items"), path + "[*]", walked, out);
    }
    if (schema.path("additionalProperties").isObject()) {
      unbounded(schema.get("additionalProperties"), path + "[*]", walked, out);
    }
  }

  private static JsonNode spec(String crd) throws IOException {
    try (InputStream in = CrashLoopBoundsTest.class.getClassLoader().getResourceAsStream("META-INF/fabric8/" + crd)) {
      assertThat(in).as(crd + " generated by the build").isNotNull();
      return YAML.readTree(in).at("/spec/versions/0/schema/openAPIV3Schema/properties/spec");
    }
  }

  private static ResourcesSpec resources(Integer nodes, int workers, Integer gpusPerWorker) {
    ResourcesSpec r = new ResourcesSpec();
    r.aggNodes = nodes;
    r.aggWorkers = workers;
    r.gpusPerWorker = gpusPerWorker;
    return r;
  }

  private static String cluster(long gpusPerNode) {
    return """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: box}
        spec: {mode: slurm, transport: local, workDir: /scratch/srt, gpusPerNode: %d}
        """.formatted(gpusPerNode);
  }

  private static String comparison(String resources, String dynamo) {
    return """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: bounds}
        spec:
          clusterRef: {name: box}
          model: {path: /models/m}
          resources: %s
          backend: {type: sglang}
          dynamo: {hash: 4dca1626b2708383514fcd65ac816ba7429c05a4%s}
          workload:
            tool: bench-serving
          arms:
          - name: dynamo-sidecar
            frontend: {type: dynamo}
            dynamo: {sidecar: {enabled: true}}
        """.formatted(resources, dynamo.isEmpty() ? "" : ", " + dynamo);
  }

  private static List<String> errors(LoadedResources r) {
    return r.problems().stream().filter(Problem::isError).map(Problem::describe).toList();
  }

  private static List<String> describe(List<Problem> problems) {
    return problems.stream().filter(Problem::isError).map(Problem::describe).toList();
  }

  record Cli(int code, String out, String err) {}

  private static Cli cli(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      code = Main.run(args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new Cli(code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
  }
}
