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
  void theHighestLevelThatMeetsItCountsEvenAfterADip() {
    // 8 misses, 16 meets again: the capacity is between 16 and 32: 16 + (1 - 0.99)/(1 - 0.98) · 16 = 24
    assertThat(Capacities.of(levels(1.0, 0.95, 1.0, 0.98, 0.2), 0.99).value()).isCloseTo(24.0, within(1e-12));
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
  void levelsWithoutGoodputAreSkippedAndNoneGivesNoCapacity() {
    // 16 has no numbers: the run's capacity lies between 8 and 32: 8 + (1 - 0.99)/(1 - 0.9) · 24 = 10.4
    assertThat(Capacities.of(levels(1.0, 1.0, null, 0.9, 0.1), 0.99).value()).isCloseTo(10.4, within(1e-12));
    assertThat(Capacities.of(levels(null, null), 0.99)).isNull();
    assertThat(Capacities.of(null, 0.99)).isNull();
  }

  @Test
  void anArmsCapacityIsTheMeanOverItsRunsWithAStudentInterval() {
    // runs at 18, 20 and 22: 16 + (1 - 0.99)/(1 - d) · 16 with d chosen so; mean 20, half 4.303 · 2 / √3 = 4.9687
    List<ArmRun> runs = List.of(run(1.0, 1.0, 1.0, 1 - 0.01 * 16 / 2, 0.1), run(1.0, 1.0, 1.0, 1 - 0.01 * 16 / 4, 0.1),
        run(1.0, 1.0, 1.0, 1 - 0.01 * 16 / 6, 0.1));
    List<Capacities.RunCapacity> each = Capacities.perRun(runs, 0.99);
    assertThat(each.get(0).value()).isCloseTo(18.0, within(1e-9));
    assertThat(each.get(1).value()).isCloseTo(20.0, within(1e-9));
    assertThat(each.get(2).value()).isCloseTo(22.0, within(1e-9));
    Capacity c = Capacities.of(runs, 0.99, "concurrency");
    assertThat(c.value).isCloseTo(20.0, within(1e-9));
    assertThat(c.low).isCloseTo(15.031725, within(1e-5));
    assertThat(c.high).isCloseTo(24.968275, within(1e-5));
    assertThat(c.unit).isEqualTo("concurrency");
    assertThat(c.n).isEqualTo(3);
    assertThat(c.bound).isNull();
    assertThat(Cells.capacity(c)).isEqualTo("20 [15.03, 24.97] concurrency");
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
