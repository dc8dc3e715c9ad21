package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.api.SloSpec;
import dev.srt.operator.api.WorkloadSpec;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.Metric;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The operator's status of a load ladder: small enough for etcd, still enough for its verdicts. */
class StatusBudgetTest {
  private static RouterComparisonSpec spec(int arms, int levels, int repetitions) {
    RouterComparisonSpec spec = new RouterComparisonSpec();
    spec.workload = new WorkloadSpec();
    spec.workload.load = new LoadSpec();
    spec.workload.load.mode = LoadSpec.CONCURRENCY;
    spec.workload.load.levels = new ArrayList<>();
    for (int l = 0; l < levels; l++) {
      spec.workload.load.levels.add((double) (8 << l));
    }
    spec.slo = new SloSpec();
    spec.slo.ttftMs = 500.0;
    spec.execution = new ExecutionSpec();
    spec.execution.repetitions = repetitions;
    for (int a = 0; a < arms; a++) {
      ArmSpec arm = new ArmSpec();
      arm.name = "arm-with-a-longish-name-" + a;
      spec.arms.add(arm);
    }
    return spec;
  }

  /** {@code arms} arms of {@code repetitions} succeeded runs, every metric set at every level with 15 digits. */
  private static Map<String, ArmStatus> statuses(RouterComparisonSpec spec, int repetitions) {
    return statuses(spec, repetitions, dev.srt.operator.verdict.AgreeingFacts::of);
  }

  /** As above, each run with the facts {@code facts} gives. */
  private static Map<String, ArmStatus> statuses(RouterComparisonSpec spec, int repetitions,
      java.util.function.Supplier<dev.srt.operator.api.RunFacts> facts) {
    Random random = new Random(7);
    Map<String, ArmStatus> out = new LinkedHashMap<>();
    for (ArmSpec armSpec : spec.arms) {
      ArmStatus arm = ComparisonState.pending(armSpec.name);
      for (int r = 1; r <= repetitions; r++) {
        arm.runId = String.format("r%08x", out.size() * 100 + r);
        arm.repetition = r;
        arm.phase = "Succeeded";
        arm.jobId = String.valueOf(100000 + out.size() * 100 + r);
        arm.runDir = "/lustre/fsw/team/srt-operator/work/a-namespace/a-comparison-name/" + arm.name + "/" + arm.runId;
        arm.startedAt = "2026-12-01T10:00:00Z";
        arm.finishedAt = "2026-12-01T10:12:34.567Z";
        arm.message = "benchmark finished";
        arm.facts = facts.get();
        arm.levels = new ArrayList<>();
        for (int l = 0; l < spec.workload.load.levels.size(); l++) {
          BenchmarkResults results = new BenchmarkResults();
          for (Metric m : Metric.values()) {
            m.set(results, m.share() ? 0.9 + random.nextDouble() * 0.09 : 12345.678901234 + random.nextDouble() * 1000);
          }
          results.completed = 1000L;
          results.failed = 0L;
          arm.levels.add(new LevelResults(spec.workload.load.levels.get(l), results));
        }
        ArmRuns.record(arm);
      }
      out.put(arm.name, arm);
    }
    return out;
  }

  private static RouterComparisonStatus status(RouterComparisonSpec spec, Map<String, ArmStatus> arms) {
    RouterComparisonStatus s = new RouterComparisonStatus();
    s.arms.addAll(arms.values());
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    arms.forEach((name, a) -> runs.put(name, a.runs));
    ComparisonReport report = ArmRuns.report("a-comparison-name", spec, new ArrayList<>(arms.keySet()), runs);
    s.verdicts = report.verdicts;
    StatusBudget.ladder(s, report, spec);
    StatusBudget.compact(s, spec);
    return s;
  }

  @Test
  void tenArmsOfTenRunsOverTenLevelsStayUnderTheStatusSizeLimit() throws Exception {
    RouterComparisonSpec spec = spec(10, 10, 10);
    RouterComparisonStatus s = status(spec, statuses(spec, 10));

    byte[] json = Mappers.json().writeValueAsString(s).getBytes(StandardCharsets.UTF_8);
    assertThat(s.verdicts).as("verdicts per level, metric and arm, and on capacity")
        .hasSizeGreaterThan(9 * 10 * 5);
    assertThat(s.arms.get(3).runs).hasSize(10).allSatisfy(r -> assertThat(r.levelTable.rows).hasSize(10));
    assertThat(s.arms.get(3).levelSummaries).hasSize(10);
    assertThat(json.length).as("status bytes").isLessThan(256 * 1024);
  }

  /**
   * Runs without facts (an upgrade over statuses of an earlier version) refuse every verdict with a
   * reason that names runs, the same for each of an arm's hundred verdicts: each is cut short in
   * the status (FactsDiffer says it whole), so the status grows by at most {@link StatusBudget#MAX_REASON}
   * characters a verdict and stays far below etcd's 1.5 MiB, if above the budget of statuses whose
   * verdicts stand.
   */
  @Test
  void runsWithoutFactsRefuseEveryVerdictAndTheStatusStillFits() throws Exception {
    RouterComparisonSpec spec = spec(10, 10, 10);
    RouterComparisonStatus s = status(spec, statuses(spec, 10, () -> dev.srt.operator.results.FactsFile.parse(null)));

    byte[] json = Mappers.json().writeValueAsString(s).getBytes(StandardCharsets.UTF_8);
    assertThat(s.verdicts).isNotEmpty().allSatisfy(v -> {
      assertThat(v.verdict).isEqualTo("not-comparable");
      assertThat(v.reason).startsWith("run r00000001 of arm-with-a-longish-name-0 has no facts: the run wrote no facts.json")
          .hasSizeLessThanOrEqualTo(StatusBudget.MAX_REASON);
    });
    assertThat(json.length).as("status bytes").isLessThan(256 * 1024 + s.verdicts.size() * (StatusBudget.MAX_REASON + 20));
  }

  @Test
  void theStatusKeepsWhatItsVerdictsNeedAndTheSameVerdictsComeOutOfIt() {
    RouterComparisonSpec spec = spec(3, 4, 3);
    Map<String, ArmStatus> arms = statuses(spec, 3);
    RouterComparisonStatus s = status(spec, arms);

    // As the operator reads its status back (after a restart).
    s.arms.forEach(a -> a.runs.forEach(dev.srt.operator.run.LevelTables::unpack));
    LevelResults level = s.arms.get(1).runs.get(0).levels.get(2);
    assertThat(level.load).isEqualTo(32.0);
    assertThat(level.results.p99TtftMs).isNotNull();
    assertThat(level.results.goodputRatio).isNotNull();
    assertThat(level.results.meanItlMs).as("not a verdict metric").isNull();
    assertThat(BigDecimalDigits.of(level.results.requestThroughput)).isLessThanOrEqualTo(StatusBudget.RESULT_DIGITS);
    // Read back, the kept numbers give the same verdicts.
    Map<String, List<ArmRun>> kept = new LinkedHashMap<>();
    s.arms.forEach(a -> kept.put(a.name, a.runs));
    ComparisonReport again = ArmRuns.report("a-comparison-name", spec, new ArrayList<>(kept.keySet()), kept);
    assertThat(again.verdicts).extracting(v -> v.metric + "@" + v.level + " " + v.arm + ": " + v.verdict)
        .isEqualTo(s.verdicts.stream().map(v -> v.metric + "@" + v.level + " " + v.arm + ": " + v.verdict).toList());
    assertThat(s.capacitySummary).startsWith("arm-with-a-longish-name-0 ").endsWith("(concurrency)");
    assertThat(s.arms.get(0).capacity.n).isEqualTo(3);
  }

  /** Significant digits of a double as it is written. */
  private static final class BigDecimalDigits {
    static int of(double v) {
      return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().precision();
    }
  }
}
