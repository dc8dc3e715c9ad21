package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.Mode;
import dev.srt.operator.config.LoadedResources;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What a comparison's plans need on the host: exactly what they run, merged across arms. */
class PrerequisitesTest {
  private static List<Prerequisites.Needed> of(Path comparison, GpuCluster cluster, String... arms) {
    RouterComparison rc = Examples.load(comparison).comparisons().get(0);
    List<String> names = arms.length > 0 ? List.of(arms) : rc.getSpec().arms.stream().map(a -> a.name).toList();
    return Prerequisites.of(cluster.getSpec(), names.stream().map(a -> Planner.plan(rc, cluster, a, null)).toList());
  }

  private static Map<String, Prerequisites.Needed> byLabel(List<Prerequisites.Needed> needed) {
    return needed.stream().collect(Collectors.toMap(n -> n.requirement().label(), Function.identity(), (a, b) -> a,
        java.util.LinkedHashMap::new));
  }

  @Test
  void theExampleOnADirectHostNeedsWhatItsArmsRunAndNothingElse() {
    Map<String, Prerequisites.Needed> n = byLabel(of(Examples.COMPARISON, Examples.cluster(Examples.DIRECT_CLUSTER)));
    assertThat(n.keySet()).containsExactly(
        ">= 8 GPUs (nvidia-smi -L)", "GPU type h100", "python3", ">= 20 GiB free in /scratch/srt-operator",
        "model /models/Qwen3-32B-FP8 (config.json, tokenizer.json)",
        "ports free: 2379,2380,5200,5201,6100,6132,7500,7501,8000,17500,17501,50051,50052",
        "cargo (on PATH)", "rustc (on PATH)", "python3: import sglang", "etcd (on PATH)", "python3 -m pip", "git (on PATH)");
    // Who needs it: the router built from source (arm 1), Dynamo's bindings built with maturin (arms 2, 3).
    assertThat(n.get("cargo (on PATH)").neededBy()).containsExactly("sgl-router", "dynamo-kv", "dynamo-kv-policy");
    assertThat(n.get("git (on PATH)").neededBy()).containsExactly("dynamo-kv", "dynamo-kv-policy");
    assertThat(n.get(">= 8 GPUs (nvidia-smi -L)").neededBy()).containsExactly(Prerequisites.CLUSTER, "sgl-router", "dynamo-kv",
        "dynamo-kv-policy");
    // The build installs maturin with pip before it runs it: pip is needed, maturin is not.
    assertThat(n).doesNotContainKey("python3 -m maturin");
    // The run installs Dynamo into its own directory: nothing to import from the host.
    assertThat(n).doesNotContainKey("python3: import dynamo");
    assertThat(n.get("etcd (on PATH)").requirement().fix()).contains("spec.infra.etcd");
  }

  @Test
  void onSlurmTheSlurmCommandsPartitionAndJobShapeReplaceThePorts() {
    Map<String, Prerequisites.Needed> n = byLabel(of(Examples.COMPARISON, Examples.cluster(Examples.SLURM_CLUSTER), "sgl-router"));
    assertThat(n.keySet()).contains("sbatch (on PATH)", "squeue (on PATH)", "scancel (on PATH)", "sinfo (on PATH)",
        "sacct (on PATH)", "Slurm partition batch", "1 node(s) with >= 8 GPUs in partition batch",
        "sbatch --test-only --partition=batch --account=llm-bench --nodes=1 --gres=gpu:8 --time=02:00:00");
    assertThat(n.keySet()).noneMatch(l -> l.startsWith("ports free"));
    assertThat(n.get("sacct (on PATH)").requirement().optional()).isTrue();
    assertThat(n.get("sbatch (on PATH)").requirement().optional()).isFalse();
    assertThat(n.keySet()).doesNotContain("git (on PATH)", "etcd (on PATH)", "python3 -m pip");
  }

  @Test
  void theClusterAloneNeedsWhatEveryRunNeeds() {
    assertThat(byLabel(Prerequisites.ofCluster(Examples.cluster(Examples.DIRECT_CLUSTER).getSpec())).keySet())
        .containsExactly(">= 8 GPUs (nvidia-smi -L)", "GPU type h100", "python3", ">= 1 GiB free in /scratch/srt-operator");
  }

  @Test
  void dynamoOnTheHostIsImportedAndAPrebuiltRouterIsAnExecutable() {
    LoadedResources r = LoadedResources.load(List.of(Path.of("src/test/resources/fixtures/valid/dynamo-install-false.yaml")),
        Examples.DIRECT_CLUSTER);
    RouterComparison rc = r.comparisons().get(0);
    GpuCluster c = r.clusterFor(rc).orElseThrow();
    Map<String, Prerequisites.Needed> n = byLabel(Prerequisites.of(c.getSpec(),
        List.of(Planner.plan(rc, c, "dynamo-kv", Mode.DIRECT))));
    assertThat(n.get("python3: import dynamo").requirement().fix()).contains("pip install ai-dynamo");
    assertThat(n.keySet()).doesNotContain("cargo (on PATH)", "python3 -m pip", ">= 20 GiB free in /scratch/srt-operator");

    RouterComparison binary = Examples.parse(Examples.exampleYaml().replace(
        "source: /src/sglang/experimental/sgl-router", "binary: /opt/sgl-router/bin/sgl-router"))
        .comparisons().get(0);
    GpuCluster direct = Examples.cluster(Examples.DIRECT_CLUSTER);
    assertThat(byLabel(Prerequisites.of(direct.getSpec(), List.of(Planner.plan(binary, direct, "sgl-router", null)))).keySet())
        .contains("/opt/sgl-router/bin/sgl-router (executable)").doesNotContain("cargo (on PATH)");
  }

  @Test
  void withAContainerOnlyTheRuntimeTheModelAndTheResourcesAreLookedForOnTheHost() {
    LoadedResources r = LoadedResources.load(List.of(Examples.COMPARISON), Path.of("src/test/resources/fixtures/valid/direct-docker.yaml"));
    RouterComparison rc = r.comparisons().get(0);
    GpuCluster c = r.clusters().get(0);
    Map<String, Prerequisites.Needed> n = byLabel(Prerequisites.of(c.getSpec(),
        rc.getSpec().arms.stream().map(a -> Planner.plan(rc, c, a.name, null)).toList()));
    assertThat(n.keySet()).contains("docker (on PATH)", "model /models/Qwen3-32B-FP8 (config.json, tokenizer.json)")
        .doesNotContain("python3", "python3: import sglang", "cargo (on PATH)", "etcd (on PATH)");
  }
}
