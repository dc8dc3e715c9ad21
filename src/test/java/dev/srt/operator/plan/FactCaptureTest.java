package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.RouterComparison;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * What a run records about itself is declared by its plan, from what the planner already knows:
 * the engines and where to ask them, the nodes, the model files, the workload's input and seed,
 * and the router's own identity, by router kind.
 */
class FactCaptureTest {
  /** Arm {@code arm} of {@code comparison} in the mode of the example cluster {@code cluster}. */
  private static RunPlan plan(Path comparison, String arm, Path cluster) {
    return Planner.plan(Examples.load(comparison).comparisons().get(0), Examples.cluster(cluster), arm, null);
  }

  @Test
  void everyWorkerEngineIsAskedAtItsOwnServerInfoAndTheModelFilesAreTheModelDirectorys() {
    FactCapture f = plan(Examples.COMPARISON, "sgl-router", Examples.SLURM_CLUSTER).factCapture();

    assertThat(f.engines()).extracting(FactCapture.Engine::name, FactCapture.Engine::serverInfoUrl).containsExactly(
        org.assertj.core.groups.Tuple.tuple("worker-0", "http://{{node:0}}:6100/server_info"),
        org.assertj.core.groups.Tuple.tuple("worker-1", "http://{{node:0}}:6132/server_info"));
    assertThat(f.nodes()).isEqualTo(1);
    assertThat(f.packages()).startsWith("sglang", "torch").contains("sgl-kernel", "flashinfer-python", "triton", "transformers");
    assertThat(f.model().files()).startsWith("/models/Qwen3-32B-FP8/config.json", "/models/Qwen3-32B-FP8/tokenizer.json",
        "/models/Qwen3-32B-FP8/tokenizer_config.json", "/models/Qwen3-32B-FP8/generation_config.json",
        "/models/Qwen3-32B-FP8/model.safetensors.index.json").contains("/models/Qwen3-32B-FP8/tokenizer.model",
        "/models/Qwen3-32B-FP8/special_tokens_map.json", "/models/Qwen3-32B-FP8/chat_template.jinja");
    assertThat(f.model().servedModelName()).isEqualTo("Qwen/Qwen3-32B-FP8");
    assertThat(f.workload()).isEqualTo(new FactCapture.WorkloadFacts("bench-serving", "sglang", null, 42));
    // sgl-router: the binary its build stage makes
    assertThat(f.router().kind()).isEqualTo("sgl-router");
    assertThat(f.router().binary()).endsWith("/target/release/sgl-router");
    assertThat(f.router().wheels()).isEmpty();
    // the router's own tokenizer is hashed, and every engine is started with the workload's seed, which it must report
    assertThat(f.router().files()).containsExactly("/models/Qwen3-32B-FP8/tokenizer.json");
    assertThat(f.engineSeed()).isEqualTo("42");
  }

  @Test
  void dynamoIsItsWheelsItsPackagesWithTheRunsInstallInFrontAndItsCatalog() {
    FactCapture plain = plan(Examples.COMPARISON, "dynamo-kv", Examples.DIRECT_CLUSTER).factCapture();
    FactCapture policy = plan(Examples.COMPARISON, "dynamo-kv-policy", Examples.DIRECT_CLUSTER).factCapture();

    assertThat(plain.router().packages()).containsExactly("ai-dynamo", "ai-dynamo-runtime");
    assertThat(plain.router().pythonPath()).isEqualTo("python");
    assertThat(plain.router().wheels()).singleElement().asString().contains("/cache/dynamo/").endsWith("-{{host_tag}}");
    assertThat(plain.router().catalogRev()).isNull();
    assertThat(policy.router().catalogRev()).matches("[0-9a-f]{40}");
    assertThat(policy.router().wheels()).isNotEqualTo(plain.router().wheels());
    // everything but the router is the same declaration in both arms
    assertThat(policy.engines()).isEqualTo(plain.engines());
    assertThat(policy.model()).isEqualTo(plain.model());
    assertThat(policy.workload()).isEqualTo(plain.workload());
  }

  @Test
  void anInProcessDynamoWorkerHasNoServerInfoToAskAndSaysSo() {
    RouterComparison rc = Examples.parse(Examples.exampleYaml().replace("dynamo: {sidecar: {enabled: true}}", "dynamo: {sidecar: {enabled: false}}"))
        .comparisons().get(0);
    FactCapture f = Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "dynamo-kv", null).factCapture();

    assertThat(f.engines()).allSatisfy(e -> {
      assertThat(e.serverInfoUrl()).isNull();
      assertThat(e.unknown()).contains("in-process Dynamo worker");
    });
  }

  @Test
  void theGatewayIsItsDistributionAndATraceIsTheWorkloadsInput() {
    assertThat(plan(Examples.GATEWAY, "sgl-model-gateway", Examples.DIRECT_CLUSTER).factCapture().router().packages())
        .containsExactly("sglang-router");
    FactCapture trace = plan(Path.of("examples/router-comparison-multinode.yaml"), "sgl-router", Examples.SLURM_CLUSTER).factCapture();
    assertThat(trace.workload().tool()).isEqualTo("aiperf");
    assertThat(trace.workload().versionPackage()).isEqualTo("aiperf");
    assertThat(trace.workload().dataset()).isEqualTo("/traces/mooncake-conversation.jsonl");
    assertThat(trace.nodes()).isGreaterThan(1);
    assertThat(trace.engines()).extracting(FactCapture.Engine::serverInfoUrl).allSatisfy(u -> assertThat(u).matches("http://\\{\\{node:\\d+}}:\\d+/server_info"));
  }

  @Test
  void theCaptureIsPartOfPlanJson() {
    String json = plan(Examples.COMPARISON, "dynamo-kv-policy", Examples.DIRECT_CLUSTER).json();
    assertThat(json).contains("\"factCapture\"", "\"serverInfoUrl\" : \"http://127.0.0.1:6100/server_info\"", "\"catalogRev\"");
  }
}
