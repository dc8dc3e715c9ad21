package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HolmTest {
  @Test
  void adjustsStepDownAndKeepsTheOrder() {
    // sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max so far 0.06
    double[] adjusted = Holm.adjust(new double[] {0.01, 0.04, 0.03, 0.005});
    assertThat(adjusted[0]).isCloseTo(0.03, within(1e-12));
    assertThat(adjusted[1]).isCloseTo(0.06, within(1e-12));
    assertThat(adjusted[2]).isCloseTo(0.06, within(1e-12));
    assertThat(adjusted[3]).isCloseTo(0.02, within(1e-12));
    // the step-down rule: 0.005 ≤ 0.05/4 and 0.01 ≤ 0.05/3 are rejected, 0.03 > 0.05/2 stops it
    assertThat(java.util.Arrays.stream(adjusted).filter(p -> p <= 0.05).count()).isEqualTo(2);
  }

  @Test
  void neverAboveOneAndOneTestIsItsOwnFamily() {
    assertThat(Holm.adjust(new double[] {0.5, 0.6})).containsExactly(1.0, 1.0);
    assertThat(Holm.adjust(new double[] {0.03})).containsExactly(0.03);
    assertThat(Holm.adjust(new double[] {})).isEmpty();
  }

  @Test
  void tiesGetTheSameAdjustedValue() {
    double[] adjusted = Holm.adjust(new double[] {0.02, 0.02, 0.5});
    assertThat(adjusted[0]).isCloseTo(0.06, within(1e-12));
    assertThat(adjusted[1]).isCloseTo(0.06, within(1e-12));
    assertThat(adjusted[2]).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void eachPIsDecidedAtTheLevelHolmHeldItTo() {
    // sorted 0.005 ≤ 0.05/4, 0.01 ≤ 0.05/3, 0.03 > 0.05/2 stops; 0.04 is held to that same 0.025
    double[] levels = Holm.decisionLevels(new double[] {0.01, 0.04, 0.03, 0.005}, 0.05);
    assertThat(levels[3]).isCloseTo(0.0125, within(1e-12));
    assertThat(levels[0]).isCloseTo(0.05 / 3, within(1e-12));
    assertThat(levels[2]).isCloseTo(0.025, within(1e-12));
    assertThat(levels[1]).isCloseTo(0.025, within(1e-12));
    // over seeded families: p ≤ its level exactly when its adjusted p ≤ 0.05
    java.util.Random random = new java.util.Random(7);
    for (int trial = 0; trial < 1000; trial++) {
      double[] p = new double[1 + random.nextInt(12)];
      for (int i = 0; i < p.length; i++) {
        p[i] = Math.pow(random.nextDouble(), 3) * 0.2;
      }
      double[] adjusted = Holm.adjust(p);
      double[] decided = Holm.decisionLevels(p, 0.05);
      for (int i = 0; i < p.length; i++) {
        assertThat(p[i] <= decided[i]).as("trial %d: p %s at %s, adjusted %s", trial, p[i], decided[i], adjusted[i])
            .isEqualTo(adjusted[i] <= 0.05);
      }
    }
  }
}
