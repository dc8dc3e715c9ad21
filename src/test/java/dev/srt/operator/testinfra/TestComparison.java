package dev.srt.operator.testinfra;

/** Small RouterComparisons for the end-to-end tests, as YAML. */
public final class TestComparison {
  private TestComparison() {}

  /**
   * One sgl-router arm built from source over one TP4 worker, 16 prompts in 4 groups: the cheapest
   * run that still builds, starts, routes and benchmarks.
   */
  public static String oneRouterArm(String name, String cluster) {
    return """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: %s}
        spec:
          clusterRef: {name: %s}
          model: {path: /models/Qwen3-32B-FP8, servedModelName: Qwen/Qwen3-32B-FP8}
          resources: {aggNodes: 1, aggWorkers: 1, gpusPerWorker: 4}
          backend: {type: sglang, args: {tensor-parallel-size: 4}}
          healthCheck: {timeout: 2m, interval: 1s}
          workload:
            tool: bench-serving
            args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 16, gsp-num-groups: 4}
          arms:
          - name: sgl-router
            frontend: {type: sgl-router, source: /src/sglang/experimental/sgl-router, args: {policy: cache_aware}}
        """.formatted(name, cluster);
  }
}
