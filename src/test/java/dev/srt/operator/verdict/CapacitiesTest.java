package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.Capacity;
import dev.srt.operator.api.LevelResults;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacitiesTest {
  static final double[] LADDER = {4, 8, 16, 32, 64};

  /** Levels of the ladder with these goodput shares (null: a level without one). */
  static List<LevelResults> levels(Double... goodput) {
    List<LevelResults> out = new ArrayList<>();
    for (int i = 0; i < goodput.length; i++) {
      BenchmarkResults r = new BenchmarkResults();
      r.goodputRatio = goodput[i];
      out.add(new LevelResults(LADDER[i], r));
    }
    return out;
  }

  static ArmRun run(Double... goodput) {
    ArmRun r = new ArmRun();
    r.phase = "Succeeded";
    r.levels = levels(goodput);
    return r;
  }

  @Test
  void interpolatesLinearlyBetweenTheLastLevelThatMeetsItAndTheNext() {
    // 16 + (0.995 - 0.99) / (0.995 - 0.96) · (32 - 16) = 18.2857
    Capacities.RunCapacity c = Capacities.of(levels(1.0, 1.0, 0.995, 0.96, 0.5), 0.99);
    assertThat(c.value()).isCloseTo(18.285714, within(1e-6));
    assertThat(c.bound()).isNull();
    assertThat(c.text()).isEqualTo("18.29");
  }

  @Test
  void aLevelExactlyAtTheAttainmentMeetsIt() {
    assertThat(Capacities.of(levels(1.0, 0.99, 0.5), 0.99).value()).isCloseTo(8.0, within(1e-12));
  }

  @Test
  void theFirstCrossingIsTheCapacityWhenTheCurveDipsAndRecovers() {
    // goodput % 100 → 88 → 73 → 100 → 58 against 90%: it first misses at 8, so 4 + (1 − 0.9) / (1 − 0.88) · 4 = 7.333;
    // the last crossing, between 32 and 64 (32 + 0.1 / 0.42 · 32 = 39.62), was a load the run did not sustain on the way
    Capacities.RunCapacity c = Capacities.of(levels(1.0, 0.88, 0.73, 1.0, 0.58), 0.9);
    assertThat(c.value()).isCloseTo(4 + 0.1 / 0.12 * 4, within(1e-12));
    assertThat(c.bound()).isNull();
    assertThat(c.recovery()).isEqualTo(new Capacities.RunCapacity(0, null, new Capacities.Recovery(8, 32)).recovery());
    assertThat(Capacities.of(levels(1.0, 1.0, 0.95, 0.5, 0.2), 0.9).recovery()).as("a curve that stays down").isNull();
    // a dip at the lowest level: below the ladder, however well the loads above went
    Capacities.RunCapacity below = Capacities.of(levels(0.85, 1.0, 1.0, 1.0, 1.0), 0.9);
    assertThat(below.text()).isEqualTo("< 4");
    assertThat(below.recovery()).isEqualTo(new Capacities.Recovery(4, 8));
  }

  @Test
  void aRecoveringRunIsWarnedAboutNamingBothLoads() {
    ArmRun dips = run(1.0, 0.88, 0.73, 1.0, 0.58);
    dips.runId = "r1234";
    List<String> warnings = Capacities.recoveryWarnings("cache-aware", List.of(dips, run(1.0, 1.0, 0.5, 0.2, 0.1)), 0.9, "concurrency");
    assertThat(warnings).containsExactly(
        "cache-aware run r1234: goodput % recovers above the attainment at c=32 after missing it at c=8; the capacity is the first crossing");
  }

  @Test
  void beyondTheLadderIsSaidNeverExtrapolated() {
    Capacities.RunCapacity below = Capacities.of(levels(0.9, 0.8, 0.5, 0.2, 0.1), 0.99);
    assertThat(below.value()).isEqualTo(4.0);
    assertThat(below.bound()).isEqualTo(Capacity.BELOW);
    assertThat(below.text()).isEqualTo("< 4");
    Capacities.RunCapacity above = Capacities.of(levels(1.0, 1.0, 1.0, 0.999, 0.995), 0.99);
    assertThat(above.value()).isEqualTo(64.0);
    assertThat(above.bound()).isEqualTo(Capacity.ABOVE);
    assertThat(above.text()).isEqualTo("> 64");
    assertThat(Capacities.of(levels(1.0), 0.99).text()).as("one level that meets it").isEqualTo("> 4");
  }

  @Test
  void aLevelWithoutGoodputIsAMissNeverSkippedAndNoneGivesNoCapacity() {
    // 16 has no ratio (every request failed, or no numbers): it is not skipped to reach 32, where the
    // arm might look fine; it misses (0): 8 + (1 - 0.99) / (1 - 0) · 8 = 8.08
    assertThat(Capacities.of(levels(1.0, 1.0, null, 1.0, 0.1), 0.99).value()).isCloseTo(8.08, within(1e-12));
    assertThat(Capacities.of(levels(1.0, 1.0, null, 1.0, 0.1), 0.99).recovery()).isEqualTo(new Capacities.Recovery(16, 32));
    List<LevelResults> noNumbers = levels(1.0, 1.0, 1.0);
    noNumbers.get(1).results = null;
    assertThat(Capacities.of(noNumbers, 0.99).value()).isCloseTo(4.04, within(1e-12));
    assertThat(Capacities.of(levels(null, null), 0.99)).as("a run without an SLO measured").isNull();
    assertThat(Capacities.of(null, 0.99)).isNull();
  }

  /** A run whose capacity is {@code c}, between 16 and 32 or 32 and 64, at attainment 0.99. */
  static ArmRun runWithCapacity(double c) {
    return c < 32 ? run(1.0, 1.0, 1.0, 1 - 0.01 * 16 / (c - 16), 0.1) : run(1.0, 1.0, 1.0, 1.0, 1 - 0.01 * 32 / (c - 32));
  }

  @Test
  void anArmsCapacityIsTheMeanOverItsRunsWithAnIntervalOnTheLogitOfItsShareOfTheLadder() {
    List<ArmRun> runs = List.of(runWithCapacity(18), runWithCapacity(20), runWithCapacity(22));
    List<Capacities.RunCapacity> each = Capacities.perRun(runs, 0.99);
    assertThat(each.get(0).value()).isCloseTo(18.0, within(1e-9));
    assertThat(each.get(1).value()).isCloseTo(20.0, within(1e-9));
    assertThat(each.get(2).value()).isCloseTo(22.0, within(1e-9));
    Capacity c = Capacities.of(runs, 0.99, "concurrency");
    assertThat(c.value).isCloseTo(20.0, within(1e-9));
    // Student's t over logit(18/64), logit(20/64), logit(22/64), mapped back by 64 · logistic (scipy): asymmetric, as
    // the capacities have more room above than below
    assertThat(c.low).isCloseTo(15.351552, within(1e-5));
    assertThat(c.high).isCloseTo(25.241925, within(1e-5));
    assertThat(c.unit).isEqualTo("concurrency");
    assertThat(c.n).isEqualTo(3);
    assertThat(c.bound).isNull();
    assertThat(Cells.capacity(c)).isEqualTo("20 [15.35, 25.24] concurrency");
  }

  @Test
  void anArmsCapacityIntervalNeverLeavesZeroToTheHighestLevel() {
    // two runs at 28.844 and 35.656 (mean 32.25): Student's t gave [-11.03, 75.53], below 0 and above the ladder's 64;
    // on the logit of c / 64: [4.03, 60.09] (scipy)
    Capacity c = Capacities.of(List.of(runWithCapacity(28.844), runWithCapacity(35.656)), 0.99, "concurrency");
    assertThat(c.value).isCloseTo(32.25, within(1e-9));
    assertThat(c.low).isCloseTo(4.032251, within(1e-5)).isGreaterThan(0);
    assertThat(c.high).isCloseTo(60.085537, within(1e-5)).isLessThan(64);
    // however wide the spread, and with many runs
    Capacity wide = Capacities.of(List.of(runWithCapacity(16.01), runWithCapacity(63.9), runWithCapacity(17), runWithCapacity(20),
        runWithCapacity(21), runWithCapacity(22), runWithCapacity(60)), 0.99, "concurrency");
    assertThat(wide.low).isGreaterThan(0).isLessThanOrEqualTo(wide.value);
    assertThat(wide.high).isLessThan(64).isGreaterThanOrEqualTo(wide.value);
  }

  @Test
  void runsThatAllLieBeyondTheSameEndGiveThatBoundAndMixedOnesNoValue() {
    Capacity above = Capacities.of(List.of(run(1.0, 1.0, 1.0, 1.0, 1.0), run(1.0, 1.0, 1.0, 1.0, 0.995)), 0.99, "concurrency");
    assertThat(above.value).isEqualTo(64.0);
    assertThat(above.bound).isEqualTo(Capacity.ABOVE);
    assertThat(above.low).isNull();
    assertThat(Cells.capacity(above)).isEqualTo("> 64 concurrency");
    Capacity mixed = Capacities.of(List.of(run(1.0, 1.0, 1.0, 1.0, 1.0), run(1.0, 1.0, 0.5, 0.1, 0.1)), 0.99, "concurrency");
    assertThat(mixed.value).isNull();
    assertThat(mixed.reason).isEqualTo("the capacity is above the highest level (64) in 1 of 2 runs: add higher levels");
    assertThat(Cells.capacity(mixed)).isEqualTo("-");
    ArmRun failed = run(1.0, 1.0, 1.0, 0.5, 0.1);
    failed.phase = "Failed";
    assertThat(Capacities.of(List.of(failed), 0.99, "concurrency")).as("failed runs do not count").isNull();
  }
}
