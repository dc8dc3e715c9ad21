package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LatencyModelTest {
  @Test
  void cachedTokensCostNoPrefillTime() {
    LatencyModel m = LatencyModel.DEFAULT;
    assertThat(m.prefillNanos(0)).isZero();
    assertThat(m.prefillNanos(2176)).isGreaterThan(15 * m.prefillNanos(128));
  }

  @Test
  void aCanaryTakesAboutAMillisecondAndAColdLongPromptTensOfMilliseconds() {
    LatencyModel m = LatencyModel.DEFAULT;
    assertThat(m.baseNanos() + m.prefillNanos(7)).isBetween(100_000L, 2_000_000L);
    assertThat(m.baseNanos() + m.prefillNanos(2176) + m.decodeNanos(255)).isBetween(20_000_000L, 200_000_000L);
  }

  @Test
  void speedDividesEveryCost() {
    LatencyModel fast = LatencyModel.fromEnv(Map.of("SRT_EMULATOR_SPEED", "4"));
    assertThat(fast.prefillNanos(1000)).isEqualTo(LatencyModel.DEFAULT.prefillNanos(1000) / 4);
    assertThat(fast.decodeNanos(100)).isEqualTo(LatencyModel.DEFAULT.decodeNanos(100) / 4);
    assertThat(fast.baseNanos()).isEqualTo(LatencyModel.DEFAULT.baseNanos() / 4);
  }

  @Test
  void rejectsANonPositiveSpeed() {
    assertThatThrownBy(() -> LatencyModel.fromEnv(Map.of("SRT_EMULATOR_SPEED", "0"))).hasMessageContaining("SRT_EMULATOR_SPEED");
  }
}
