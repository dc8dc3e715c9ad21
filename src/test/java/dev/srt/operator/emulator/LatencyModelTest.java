package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LatencyModelTest {
  private static final Map<String, String> QUIET = Map.of("SRT_EMULATOR_NOISE", "0");

  @Test
  void prefillGrowsWithTheTokensTheCacheMissed() {
    LatencyModel m = LatencyModel.DEFAULT;
    int prompt = 2176;
    long cold = m.prefillNanos(prompt, 0);
    long warm = m.prefillNanos(prompt - 2048, 2048);
    long half = m.prefillNanos(prompt - 1024, 1024);
    assertThat(warm).isLessThan(half);
    assertThat(half).isLessThan(cold);
    assertThat(cold).isGreaterThan(8 * warm);
    // a cached token is not free, only much cheaper
    assertThat(m.prefillNanos(0, 2048)).isPositive().isLessThan(m.prefillNanos(2048, 0) / 10);
  }

  @Test
  void aCanaryTakesAboutAMillisecondAndAColdLongPromptHundredsOfMilliseconds() {
    LatencyModel m = LatencyModel.DEFAULT;
    assertThat(m.baseNanos() + m.prefillNanos(7, 0)).isBetween(100_000L, 2_000_000L);
    assertThat(m.baseNanos() + m.prefillNanos(2176, 0) + m.decodeNanos(255)).isBetween(200_000_000L, 600_000_000L);
  }

  @Test
  void speedDividesEveryCost() {
    LatencyModel fast = LatencyModel.fromEnv(Map.of("SRT_EMULATOR_SPEED", "4", "SRT_EMULATOR_NOISE", "0"), "sglang:1");
    assertThat(fast.prefillNanos(1000, 0)).isEqualTo(LatencyModel.DEFAULT.prefillNanos(1000, 0) / 4);
    assertThat(fast.decodeNanos(100)).isEqualTo(LatencyModel.DEFAULT.decodeNanos(100) / 4);
    assertThat(fast.baseNanos()).isEqualTo(LatencyModel.DEFAULT.baseNanos() / 4);
  }

  @Test
  void theNoiseSpeedFactorScalesEveryCostOfTheProcess() {
    Map<String, String> env = Map.of("SRT_EMULATOR_SEED", "7", "SRT_RUN_ID", "r1");
    LatencyModel noisy = LatencyModel.fromEnv(env, "sglang:6100");
    double factor = RunNoise.fromEnv(env, "sglang:6100").speedFactor();
    assertThat(factor).isNotEqualTo(1.0);
    long mean = 0;
    int n = 4000;
    for (int i = 0; i < n; i++) {
      mean += noisy.prefillNanos(1000, 0) / n;
    }
    // the jitter averages out; what stays is the process's own speed
    assertThat((double) mean).isCloseTo(LatencyModel.DEFAULT.prefillNanos(1000, 0) / factor, org.assertj.core.data.Percentage.withPercentage(1));
  }

  @Test
  void noiseCanBeTurnedOff() {
    LatencyModel m = LatencyModel.fromEnv(QUIET, "sglang:6100");
    assertThat(m.prefillNanos(500, 100)).isEqualTo(LatencyModel.DEFAULT.prefillNanos(500, 100)).isEqualTo(m.prefillNanos(500, 100));
  }

  @Test
  void rejectsANonPositiveSpeed() {
    assertThatThrownBy(() -> LatencyModel.fromEnv(Map.of("SRT_EMULATOR_SPEED", "0"), "x")).hasMessageContaining("SRT_EMULATOR_SPEED");
    assertThatThrownBy(() -> LatencyModel.fromEnv(Map.of("SRT_EMULATOR_SPEED", "fast"), "x")).hasMessageContaining("SRT_EMULATOR_SPEED");
    assertThatThrownBy(() -> LatencyModel.fromEnv(Map.of("SRT_EMULATOR_NOISE", "-1"), "x")).hasMessageContaining("SRT_EMULATOR_NOISE");
  }
}
