package dev.srt.operator.emulator;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.Verdict;
import dev.srt.operator.verdict.Metric;
import dev.srt.operator.verdict.Statistics;
import dev.srt.operator.verdict.VerdictSettings;
import dev.srt.operator.verdict.Verdicts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunNoiseTest {
  private static Map<String, String> env(String seed, String runId) {
    Map<String, String> env = new HashMap<>();
    if (seed != null) {
      env.put("SRT_EMULATOR_SEED", seed);
    }
    env.put("SRT_RUN_ID", runId);
    return env;
  }

  @Test
  void theSameSeedAndRunIdReplayTheSameNoise() {
    RunNoise a = RunNoise.fromEnv(env("42", "r7c1d2e3f"), "sglang:6100");
    RunNoise b = RunNoise.fromEnv(env("42", "r7c1d2e3f"), "sglang:6100");
    assertThat(a.speedFactor()).isEqualTo(b.speedFactor());
    for (int i = 0; i < 100; i++) {
      assertThat(a.jitter()).isEqualTo(b.jitter());
    }
  }

  @Test
  void repetitionsEnginesAndUnseededRunsDrawIndependently() {
    double base = RunNoise.fromEnv(env("42", "r1"), "sglang:6100").speedFactor();
    assertThat(RunNoise.fromEnv(env("42", "r2"), "sglang:6100").speedFactor()).isNotEqualTo(base);
    assertThat(RunNoise.fromEnv(env("42", "r1"), "sglang:6101").speedFactor()).isNotEqualTo(base);
    assertThat(RunNoise.fromEnv(env("43", "r1"), "sglang:6100").speedFactor()).isNotEqualTo(base);
    assertThat(RunNoise.fromEnv(env(null, "r1"), "sglang:6100").speedFactor())
        .isNotEqualTo(RunNoise.fromEnv(env(null, "r1"), "sglang:6100").speedFactor());
  }

  @Test
  void runToRunSpreadIsAFewPercentAndTheJitterAveragesToOne() {
    List<Double> factors = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      factors.add(RunNoise.fromEnv(env("1", "run-" + i), "sglang:6100").speedFactor());
    }
    assertThat(Statistics.mean(array(factors))).isBetween(0.99, 1.01);
    assertThat(cv(factors)).isBetween(0.03, 0.05);
    RunNoise n = RunNoise.fromEnv(env("1", "run-0"), "sglang:6100");
    List<Double> jitter = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      jitter.add(n.jitter());
    }
    assertThat(Statistics.mean(array(jitter))).isBetween(0.99, 1.01);
    assertThat(jitter).allSatisfy(j -> assertThat(j).isBetween(0.5, 2.0));
  }

  /**
   * One emulated run of an arm at the latency model's level: two engines serving the scaled
   * example's requests (164 uncached and 383 cached tokens each); the run's mean TTFT is the mean
   * prefill time and its throughput the requests over the busier engine's time.
   */
  private static double[] run(String seed, String runId) {
    Map<String, String> env = env(seed, runId);
    double ttft = 0;
    double busiest = 0;
    int perEngine = 128;
    for (String engine : List.of("sglang:30001", "sglang:30002")) {
      LatencyModel m = LatencyModel.fromEnv(env, engine);
      double busy = 0;
      for (int i = 0; i < perEngine; i++) {
        busy += m.baseNanos() + m.prefillNanos(164, 383);
      }
      ttft += busy / perEngine / 2;
      busiest = Math.max(busiest, busy);
    }
    return new double[] {ttft, 2 * perEngine / busiest};
  }

  /**
   * Verdicts on two identical arms in each of {@code trials} seeded trials of 3 against 3
   * repetitions, on mean TTFT and throughput, as the comparison gives them (Welch's test, Holm over
   * both metrics, TOST against the default 2% margin).
   */
  private static List<List<Verdict>> trials(String seedPrefix, int trials, List<Double> ttfts, List<Double> throughputs) {
    List<List<Verdict>> out = new ArrayList<>();
    for (int trial = 0; trial < trials; trial++) {
      Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
      for (int arm = 0; arm < 2; arm++) {
        List<ArmRun> list = new ArrayList<>();
        for (int rep = 0; rep < 3; rep++) {
          double[] r = run(seedPrefix + trial, "r-" + arm + "-" + rep);
          ArmRun run = new ArmRun();
          run.phase = "Succeeded";
          run.results = new BenchmarkResults();
          run.results.meanTtftMs = r[0];
          run.results.requestThroughput = r[1];
          list.add(run);
          if (arm == 0) {
            ttfts.add(r[0]);
            throughputs.add(r[1]);
          }
        }
        runs.put("arm-" + arm, list);
      }
      out.add(Verdicts.of(runs, new VerdictSettings("arm-0", 0.01, List.of(Metric.MEAN_TTFT_MS, Metric.REQUEST_THROUGHPUT),
          ExecutionSpec.DEFAULT_EQUIVALENCE_MARGIN, java.util.Collections.singletonList(null), null, null)));
    }
    return out;
  }

  @Test
  void twoArmsWithTheSameRouterAreNeverBetterOrWorseInAtLeast19Of20SeededTrials() {
    List<Double> ttfts = new ArrayList<>();
    List<Double> throughputs = new ArrayList<>();
    List<List<Verdict>> trials = trials("verdict-", 20, ttfts, throughputs);
    long judgedDifferent = trials.stream()
        .filter(t -> t.stream().anyMatch(v -> v.verdict.equals(Verdicts.BETTER) || v.verdict.equals(Verdicts.WORSE))).count();
    assertThat(judgedDifferent).isLessThanOrEqualTo(1);
    assertThat(trials).allSatisfy(t -> assertThat(t).extracting(v -> v.verdict)
        .allSatisfy(w -> assertThat(w).isIn(Verdicts.EQUIVALENT, Verdicts.INCONCLUSIVE, Verdicts.BETTER, Verdicts.WORSE)));
    // and runs do differ, by a few percent
    assertThat(cv(ttfts)).isBetween(0.01, 0.06);
    assertThat(cv(throughputs)).isBetween(0.01, 0.06);
  }

  /**
   * The 20-trial criterion holds for a given seed set; what makes it hold for most sets is that
   * runs are independent, so Welch's test keeps its nominal 5% error rate (a little less for 3
   * against 3): about 5% of raw p-values per metric fall below 0.05.
   */
  @Test
  void identicalArmsDifferInAboutFivePercentOfTrials() {
    List<List<Verdict>> trials = trials("rate-", 400, new ArrayList<>(), new ArrayList<>());
    for (Metric m : List.of(Metric.MEAN_TTFT_MS, Metric.REQUEST_THROUGHPUT)) {
      long found = trials.stream().flatMap(List::stream).filter(v -> v.metric.equals(m.key()) && v.pValue <= 0.05).count();
      assertThat(found).as(m.key()).isBetween(4L, 28L);
    }
  }

  private static double[] array(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** Coefficient of variation: sample standard deviation over the mean. */
  private static double cv(List<Double> xs) {
    double[] a = array(xs);
    return Math.sqrt(Statistics.variance(a)) / Statistics.mean(a);
  }
}
