package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Issue 41, finding 9: a ladder of 10,000 levels was refused with the right "has 10000 levels; at
 * most 16" and a wrong "its script would be more than 8 MiB" (each level's benchmark line repeats
 * the workload's arguments): the script bound rendered a spec that another rule had already
 * refused. It now measures only a spec that breaks no other rule.
 */
class TenThousandLevelsTest {
  private static final String CLUSTER = """
      apiVersion: srt.dev/v1alpha1
      kind: GpuCluster
      metadata: {name: h100-box}
      spec: {mode: direct, transport: local, workDir: /scratch/srt-operator}
      """;

  private static String comparison(int levels) {
    String list = IntStream.rangeClosed(1, levels).mapToObj(String::valueOf).collect(Collectors.joining(", "));
    return """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: ladder}
        spec:
          clusterRef: {name: h100-box}
          model: {path: /models/m}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
          workload:
            tool: bench-serving
            args: {backend: sglang-oai-chat, dataset-path: /data/%s.jsonl}
            load: {mode: concurrency, requestsPerLevel: 64, levels: [%s]}
          arms:
          - name: router
            frontend: {type: sgl-router, source: /src/sgl-router}
        """.formatted("d".repeat(1000), list);
  }

  @Test
  void tenThousandLevelsGetTheOneErrorThatNamesTheCause() {
    var problems = LoadedResources.parse("ladder.yaml", CLUSTER + "---\n" + comparison(10_000)).problems();
    assertThat(problems).filteredOn(Problem::isError).extracting(Problem::describe)
        .containsExactly("spec.workload.load.levels: has 10000 levels; at most 16");
  }

  @Test
  void sixteenLevelsAreValid() {
    assertThat(LoadedResources.parse("ladder.yaml", CLUSTER + "---\n" + comparison(16)).problems()).filteredOn(Problem::isError).isEmpty();
  }
}
