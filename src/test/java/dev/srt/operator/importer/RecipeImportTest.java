package dev.srt.operator.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.Mode;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.render.Scripts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code srt-operator import} of the contract's three arm recipes (arms-contract.md 2.7, written
 * out under src/test/resources/import): the same scripts as examples/router-comparison.yaml, and
 * the refusals of fairness at the door.
 */
class RecipeImportTest {
  static final Path DIR = Path.of("src/test/resources/import");
  static final Path ARM1 = DIR.resolve("arm1-sgl-router.yaml");
  static final Path ARM2 = DIR.resolve("arm2-dynamo-sidecar.yaml");
  static final Path ARM3 = DIR.resolve("arm3-dynamo-sgl-policy.yaml");
  static final Map<String, String> ENV = Map.of("ROUTER_ARM_MODEL_PATH", "/models/Qwen3-32B-FP8",
      "ROUTER_ARM_SGLANG_SOURCE", "/src/sglang", "ROUTER_ARM_TRACE", "/traces/agentx.jsonl");
  /** The example's arm names, for the arms of the recipes in order. */
  static final List<String> EXAMPLE_ARMS = List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy");

  @TempDir Path tmp;

  static RecipeImport.Result importArms(Map<String, String> env, Path... recipes) {
    return RecipeImport.run(List.of(recipes), "qwen3-32b-routers", env);
  }

  static RouterComparison parse(String yaml) {
    LoadedResources r = LoadedResources.parse("imported.yaml", yaml);
    assertThat(r.problems()).filteredOn(Problem::isError).isEmpty();
    return r.comparisons().get(0);
  }

  @Test
  void theContractArmsRenderTheExampleScripts() {
    RecipeImport.Result r = importArms(ENV, ARM1, ARM2, ARM3);
    assertThat(r.problems()).isEmpty();
    RouterComparison imported = parse(r.comparisonYaml());
    assertThat(imported.getSpec().arms).extracting(a -> a.name)
        .containsExactly("router-arm1-sgl-router", "router-arm2-dynamo-sidecar", "router-arm3-dynamo-sgl-policy");
    assertThat(imported.getSpec().workload.tool).isEqualTo("custom");
    assertThat(imported.getSpec().workload.command).contains("--url \"$SRT_FRONTEND_URL\"", "\"$AIPERF_ARTIFACT_DIR\"");
    assertThat(imported.getSpec().workload.env).containsEntry("ROUTER_ARM_TRACE", "/traces/agentx.jsonl")
        .containsEntry("SRTCTL_RUTER_PYTHON", "python3");

    // The example benchmarks with bench-serving and names its arms and cluster itself: take those from it,
    // so that everything the recipes say is compared.
    RouterComparison example = Examples.comparison();
    example.getSpec().workload = imported.getSpec().workload;
    imported.getSpec().clusterRef = example.getSpec().clusterRef;
    for (int i = 0; i < EXAMPLE_ARMS.size(); i++) {
      imported.getSpec().arms.get(i).name = EXAMPLE_ARMS.get(i);
    }
    for (Mode mode : Mode.values()) {
      var cluster = Examples.cluster(mode == Mode.SLURM ? Examples.SLURM_CLUSTER : Examples.DIRECT_CLUSTER);
      for (String arm : EXAMPLE_ARMS) {
        assertThat(Scripts.render(Planner.plan(imported, cluster, arm, mode))).as("%s %s", arm, mode.id())
            .isEqualTo(Scripts.render(Planner.plan(example, cluster, arm, mode)));
      }
    }
  }

  @Test
  void everyFieldNotCarriedOverIsListedWithItsReason() {
    RecipeImport.Result r = importArms(ENV, ARM1, ARM2, ARM3);
    assertThat(r.ignored()).anySatisfy(l -> assertThat(l).startsWith(ARM1 + ":3: ignored model.precision: "))
        .anySatisfy(l -> assertThat(l).contains("ignored observability.tachometer.enabled: ", "Tachometer"))
        .anySatisfy(l -> assertThat(l).contains("ignored environment.SRTCTL_SGLANG_SOURCE: "))
        .anySatisfy(l -> assertThat(l).contains("ignored dynamo.install: only arms with frontend.type: dynamo use Dynamo"))
        .anySatisfy(l -> assertThat(l).contains("ignored frontend.enable_multiple_frontends: "));
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("workload.env.ROUTER_ARM_TRACE: taken from the environment"));
  }

  @Test
  void theClusterSkeletonCarriesTheMachineFields() {
    RecipeImport.Result r = importArms(ENV, ARM1, ARM2, ARM3);
    assertThat(r.clusterYaml()).contains("kind: GpuCluster", "name: h100-host", "mode: direct", "gpusPerNode: 8", "gpuType: h100",
        "image: lmsysorg/sglang:dev", "etcdClientPort: 23379", "etcdPeerPort: 23380", "natsPort: 25222", "allowCustomWorkloads: true");
    assertThat(r.comparisonYaml()).contains("clusterRef:\n    name: h100-host");
  }

  @Test
  void aDifferenceOutsideRoutingRefusesWithBothValuesAndLines() throws IOException {
    Path arm2 = copy(ARM2, "arm2.yaml", "page-size: 64", "page-size: 32");
    RecipeImport.Result r = importArms(ENV, ARM1, arm2);
    assertThat(r.refused()).isTrue();
    assertThat(r.comparisonYaml()).isNull();
    assertThat(r.problems()).extracting(Problem::toString).contains(
        "backend.sglang_config.aggregated.page-size: 64 in " + ARM1 + ":18, 32 in " + arm2 + ":18");
    assertThat(r.problems().get(0).message()).contains("routing fields (name, frontend, dynamo)");
  }

  @Test
  void aFieldSetInOneRecipeOnlyIsADifferenceToo() throws IOException {
    Path arm2 = copy(ARM2, "arm2.yaml", "      enable-metrics: true\n", "      enable-metrics: true\n      mem-fraction-static: 0.85\n");
    RecipeImport.Result r = importArms(ENV, ARM1, arm2);
    assertThat(r.problems()).extracting(Problem::toString).contains(
        "backend.sglang_config.aggregated.mem-fraction-static: unset in " + ARM1 + ", 0.85 in " + arm2 + ":20");
  }

  @Test
  void aVariableNotGivenWithEnvRefusesNamingItAndItsLine() {
    Map<String, String> env = Map.of("ROUTER_ARM_SGLANG_SOURCE", "/src/sglang", "ROUTER_ARM_TRACE", "/t.jsonl");
    RecipeImport.Result r = importArms(env, ARM1);
    assertThat(r.refused()).isTrue();
    assertThat(r.problems()).extracting(Problem::toString).containsExactly(
        ARM1 + ":3: model.path: $ROUTER_ARM_MODEL_PATH is not resolved: give --env ROUTER_ARM_MODEL_PATH to take its value from the "
            + "environment of the import (it is then written into the comparison; srtctl resolves it when it loads the recipe)");
  }

  /** The benchmark command is the run's shell's: a variable it uses that is not given is listed, and the command kept as written. */
  @Test
  void aVariableOfTheBenchmarkCommandNotGivenIsListed() {
    Map<String, String> env = Map.of("ROUTER_ARM_MODEL_PATH", "/m", "ROUTER_ARM_SGLANG_SOURCE", "/src/sglang");
    RecipeImport.Result r = importArms(env, ARM1);
    assertThat(r.refused()).isFalse();
    assertThat(r.problems()).extracting(Problem::toString).containsExactly(ARM1 + ":23: warning: benchmark.command: uses $ROUTER_ARM_TRACE, "
        + "which the run does not set (the command's shell expands it at run time): add it to spec.workload.env or spec.secretEnv, "
        + "or import with --env ROUTER_ARM_TRACE");
    assertThat(parse(r.comparisonYaml()).getSpec().workload.command).contains("--input-file \"$ROUTER_ARM_TRACE\"");
    assertThat(parse(r.comparisonYaml()).getSpec().workload.env).doesNotContainKey("ROUTER_ARM_TRACE");
  }

  @Test
  void bracedVariablesAreResolved() throws IOException {
    Path arm = copy(ARM1, "arm1.yaml", "path: $ROUTER_ARM_MODEL_PATH,", "path: \"${ROUTER_ARM_MODEL_PATH}\",");
    assertThat(parse(importArms(ENV, arm).comparisonYaml()).getSpec().model.path).isEqualTo("/models/Qwen3-32B-FP8");
  }

  @Test
  void anUnknownFrontendTypeRefuses() throws IOException {
    Path arm = copy(ARM2, "vllm.yaml", "type: dynamo,", "type: vllm,");
    RecipeImport.Result r = importArms(ENV, ARM1, arm);
    assertThat(r.refused()).isTrue();
    assertThat(r.problems()).extracting(Problem::toString).containsExactly(arm + ":29: frontend.type: vllm is not a router "
        + "srt-operator compares; srtctl frontend types it imports: sgl-router, dynamo, sglang (the SGLang Model Gateway)");
  }

  @Test
  void unknownAndUnsupportedFieldsAreReportedNotDropped() throws IOException {
    Path arm = copy(ARM2, "extra.yaml", "observability:", "telemetry: {enabled: true}\nsetup_script: patch.sh\nfavourite_colour: blue\nobservability:");
    RecipeImport.Result r = importArms(ENV, arm);
    assertThat(r.refused()).isFalse();
    assertThat(r.ignored()).anySatisfy(l -> assertThat(l).contains("ignored telemetry.enabled: GPU power telemetry"))
        .anySatisfy(l -> assertThat(l).contains("ignored setup_script: no setup script runs"))
        .anySatisfy(l -> assertThat(l).contains("ignored favourite_colour: not an srtctl recipe field the importer knows"));
  }

  @Test
  void dynamoArmsMustAgreeOnTheDynamoInstall() throws IOException {
    Path arm3 = copy(ARM3, "arm3.yaml", "  hash: 4dca1626b2708383514fcd65ac816ba7429c05a4", "  hash: 0123456789abcdef0123456789abcdef01234567");
    RecipeImport.Result r = importArms(ENV, ARM2, arm3);
    assertThat(r.problems()).extracting(Problem::toString).containsExactly("dynamo.hash: 4dca1626b2708383514fcd65ac816ba7429c05a4 in "
        + ARM2 + ":28, 0123456789abcdef0123456789abcdef01234567 in " + arm3 + ":29 (the Dynamo install and planes are one spec.dynamo "
        + "for every Dynamo arm)");
  }

  @Test
  void installFalseOnADynamoArmUsesTheHostsDynamo() throws IOException {
    Path arm2 = copy(ARM2, "arm2.yaml", "dynamo: {hash: 4dca1626b2708383514fcd65ac816ba7429c05a4,", "dynamo: {install: false,");
    RecipeImport.Result r = importArms(ENV, ARM1, arm2);
    assertThat(r.problems()).isEmpty();
    RouterComparison rc = parse(r.comparisonYaml());
    assertThat(rc.getSpec().dynamo.install).isFalse();
    assertThat(rc.getSpec().dynamo.hash).isNull();
    var plan = Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "router-arm2-dynamo-sidecar", Mode.DIRECT);
    assertThat(plan.builds()).isEmpty();
  }

  @Test
  void aRecipeWithoutADynamoSourceGetsSrtctlsDefaultRelease() throws IOException {
    Path arm2 = copy(ARM2, "arm2.yaml", "dynamo: {hash: 4dca1626b2708383514fcd65ac816ba7429c05a4,", "dynamo: {");
    RecipeImport.Result r = importArms(ENV, arm2);
    assertThat(parse(r.comparisonYaml()).getSpec().dynamo.version).isEqualTo("0.8.0");
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("spec.dynamo.version: 0.8.0 (srtctl's default"));
  }

  /** srtctl's {@code frontend.type: sglang} (the SGLang Model Gateway) becomes the router kind sgl-model-gateway. */
  @Test
  void theModelGatewayIsMappedToItsRouterKind() throws IOException {
    Path gw = copy(ARM2, "gateway.yaml", "frontend: {type: dynamo, enable_multiple_frontends: false, args: {router-mode: kv}}",
        "frontend: {type: sglang, args: {policy: cache_aware}, env: {RUST_LOG: info}}");
    Draft d = new Draft();
    Recipe recipe = Recipe.load(gw, new EnvReferences(ENV), d.problems);
    var arm = ArmFields.map(recipe, d);
    assertThat(d.problems).isEmpty();
    assertThat(arm.path("frontend").path("type").asText()).isEqualTo("sgl-model-gateway");
    assertThat(arm.path("frontend").path("args").path("policy").asText()).isEqualTo("cache_aware");
    assertThat(arm.path("frontend").path("env").path("RUST_LOG").asText()).isEqualTo("info");
    assertThat(arm.has("dynamo")).as("a non-Dynamo arm takes no Dynamo fields").isFalse();
    assertThat(d.ignored()).anySatisfy(l -> assertThat(l).contains("ignored dynamo.hash: only arms with frontend.type: dynamo"));
  }

  /** A gateway-vs-Dynamo pair over 8 TP1 workers: two arms, the gateway's policy among its flags, and it validates. */
  @Test
  void aGatewayVsDynamoPairMapsToTwoArms() {
    Path dir = DIR.resolve("gateway-vs-dynamo");
    RecipeImport.Result r = RecipeImport.run(List.of(dir.resolve("gateway.yaml"), dir.resolve("dynamo-kv.yaml")), "gateway-vs-dynamo",
        Map.of("MODEL_PATH", "/models/Qwen3-8B"));
    assertThat(r.problems()).filteredOn(Problem::isError).isEmpty();
    assertThat(r.refused()).isFalse();
    assertThat(r.comparisonYaml()).contains("""
          arms:
          - name: sgl-model-gateway
            frontend:
              type: sgl-model-gateway
              args:
                policy: cache_aware
          - name: dynamo-kv
            frontend:
              type: dynamo
        """.indent(0)).contains("aggWorkers: 8", "gpusPerWorker: 1", "kvEvents:");
  }

  @Test
  void fileLevelExtrasAreRefused() throws IOException {
    Path arm = copy(ARM2, "sweep.yaml", "observability:", "sweep: {mode: grid}\nobservability:");
    RecipeImport.Result r = importArms(ENV, arm);
    assertThat(r.problems()).extracting(Problem::toString).anySatisfy(s -> assertThat(s).startsWith(arm + ":20: sweep.mode: srtctl's sweep over {mode} is not imported"));
  }

  @Test
  void armNamesBecomeDnsLabels() {
    assertThat(ArmFields.armName("Router_Arm1.SGL")).isEqualTo("router-arm1-sgl");
  }

  private Path copy(Path from, String name, String find, String replace) throws IOException {
    String text = Files.readString(from);
    assertThat(text).contains(find);
    Path to = tmp.resolve(name);
    Files.writeString(to, text.replace(find, replace));
    return to;
  }
}
