package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.render.Scripts;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load ladder as planned and rendered: the engines once, the benchmark once per level. */
class LoadLadderTest {
  /** The capacity example with the workload these tests read, then {@code from} replaced by {@code to}. */
  private static String capacityYaml(String from, String to) throws Exception {
    String yaml = Files.readString(Examples.CAPACITY);
    int start = yaml.indexOf("  workload:\n");
    int end = yaml.indexOf("  slo:", start);
    String workload = """
          workload:
            tool: bench-serving
            args: {backend: sglang-oai-chat, dataset-name: random}
            load:
              mode: concurrency
              levels: [8, 16, 32, 64, 128]
              requestsPerLevel: 256
              drainBetweenLevels: 2s
        """;
    return (yaml.substring(0, start) + workload + yaml.substring(end))
        .replace(from, to);
  }

  private static RunPlan plan(String yaml) {
    RouterComparison rc = Examples.parse(yaml).comparisons().get(0);
    return Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "cache-aware", Mode.DIRECT);
  }

  @Test
  void aBenchServingLadderRunsOneBenchmarkPerLevelEachWithItsLoadResultsAndSeed() throws Exception {
    RunPlan plan = plan(capacityYaml("", ""));

    List<ProcessSpec> benchmarks = plan.processes(Role.BENCHMARK);
    assertThat(benchmarks).extracting(ProcessSpec::name)
        .containsExactly("benchmark-level-1", "benchmark-level-2", "benchmark-level-3", "benchmark-level-4", "benchmark-level-5");
    assertThat(plan.processes(Role.WORKER)).hasSize(2); // the engines start once
    assertThat(plan.ladder().levels()).extracting(Ladder.Level::load).containsExactly(8.0, 16.0, 32.0, 64.0, 128.0);
    assertThat(plan.ladder().drainSeconds()).isEqualTo(2);
    assertThat(plan.slo().e2eMs).isEqualTo(1500.0);

    ProcessSpec third = benchmarks.get(2);
    assertThat(third.argv()).containsSequence("--max-concurrency", "32").containsSequence("--num-prompts", "256")
        .containsSequence("--output-file", "results/level-3/bench-serving.jsonl").containsSequence("--seed", "44")
        .containsSequence("--warmup-requests", "0").doesNotContain("--request-rate");
    assertThat(third.log()).isEqualTo("logs/benchmark-level-3.log");
    assertThat(third.env()).containsEntry("SRT_RESULTS_DIR", "results/level-3");
    // Warm-up once, before the first level.
    assertThat(benchmarks.get(0).argv()).containsSequence("--warmup-requests", "32").containsSequence("--seed", "42");
  }

  @Test
  void anOpenLoopLadderSetsTheRateAndRateTimesDurationRequests() throws Exception {
    RunPlan plan = plan(capacityYaml(
        "      mode: concurrency\n      levels: [8, 16, 32, 64, 128]\n      requestsPerLevel: 256\n",
        "      mode: request-rate\n      levels: [2.5, 10]\n      durationPerLevel: 30s\n"));

    List<ProcessSpec> benchmarks = plan.processes(Role.BENCHMARK);
    assertThat(benchmarks.get(0).argv()).containsSequence("--request-rate", "2.5").containsSequence("--num-prompts", "75")
        .doesNotContain("--max-concurrency");
    assertThat(benchmarks.get(1).argv()).containsSequence("--request-rate", "10").containsSequence("--num-prompts", "300");
    assertThat(plan.ladder().drainSeconds()).isEqualTo(2);
  }

  @Test
  void aiperfAndCustomCommandsGetTheLevelTheirWay() throws Exception {
    String aiperf = capacityYaml("    tool: bench-serving\n    args: {backend: sglang-oai-chat, dataset-name: random}\n",
        "    tool: aiperf\n");
    List<ProcessSpec> a = plan(aiperf).processes(Role.BENCHMARK);
    assertThat(a.get(1).argv()).containsSequence("--concurrency", "16").containsSequence("--request-count", "256")
        .containsSequence("--output-artifact-dir", "results/level-2/aiperf").doesNotContain("--warmup-request-count");
    assertThat(a.get(0).argv()).containsSequence("--warmup-request-count", "32");
  }

  @Test
  void withoutALoadTheWorkloadRunsOnceAsBefore() {
    RunPlan plan = Examples.plan("sgl-router", Mode.DIRECT);
    assertThat(plan.ladder()).isNull();
    assertThat(plan.processes(Role.BENCHMARK)).singleElement().satisfies(p -> {
      assertThat(p.name()).isEqualTo("benchmark");
      assertThat(p.argv()).containsSequence("--output-file", "results/bench-serving.jsonl").doesNotContain("--max-concurrency");
    });
  }

  @Test
  void theScriptMeasuresTheLevelsInOrderWithAPauseBetweenAndReportsEach() throws Exception {
    String script = Scripts.render(plan(capacityYaml("", "")));
    List<String> lines = script.lines().filter(l -> l.startsWith("srt_level_started ") || l.startsWith("srt_level_finished ") || l.startsWith("srt_drain ")
        || l.startsWith("srt_run_benchmark ") || l.startsWith("srt_phase")).toList();
    assertThat(lines).filteredOn(l -> l.startsWith("srt_level_started ")).extracting(l -> l.split(" ")[1])
        .containsExactly("1", "2", "3", "4", "5");
    assertThat(lines).filteredOn(l -> l.startsWith("srt_drain ")).hasSize(4).allMatch(l -> l.equals("srt_drain 2"));
    // Started, measured, finished, for each level in turn.
    int started = lines.indexOf("srt_level_started 3 5 32 c=32 results/level-3");
    assertThat(lines.get(started + 1)).startsWith("srt_run_benchmark 86400 logs/benchmark-level-3.log ");
    assertThat(lines.get(started + 2)).isEqualTo("srt_level_finished 3 5 32 c=32 results/level-3");
    assertThat(lines).filteredOn(l -> l.startsWith("srt_phase")).last().isEqualTo("srt_phase benchmarking");
  }
}
