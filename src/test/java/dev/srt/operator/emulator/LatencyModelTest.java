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
    assertThat(m.baseNanos() + m.prefillNanos(2176, 0)).isBetween(200_000_000L, 600_000_000L);
  }

  @Test
  void aStepOfABiggerBatchTakesLongerButTheBatchDecodesMore() {
    LatencyModel m = LatencyModel.DEFAULT;
    assertThat(m.decodeNanos(64)).isEqualTo(m.decodeNanos(64, 1)).isEqualTo(128_000_000L);
    // 33 requests decode at half the speed of one: 2 ms · (1 + 32/32) per token
    assertThat(m.decodeNanos(64, 33)).isEqualTo(2 * m.decodeNanos(64));
    double one = 1.0 / m.decodeNanos(1, 1);
    double eight = 8.0 / m.decodeNanos(1, 8);
    double thirtyTwo = 32.0 / m.decodeNanos(1, 32);
    assertThat(eight).isGreaterThan(6 * one);
    assertThat(thirtyTwo).isGreaterThan(eight).isLessThan(4 * eight);
  }

  /**
   * Where a closed loop over two engines saturates, from the costs alone: an engine's prefill lane is
   * busy all the time once the requests in flight per engine exceed (prefill + decode) / prefill.
   * On the scaled example workload (about 150 uncached and 390 cached prompt tokens on average
   * behind a cache-aware router, 64 output tokens) that is a handful per engine, so a ladder 4, 8,
   * 16, 32, 64 over two engines is unsaturated at its first level and saturated at its last.
   */
  @Test
  void aConcurrencyLadderOverTwoEnginesBendsInsideItsLevels() {
    LatencyModel m = LatencyModel.DEFAULT;
    double prefill = m.baseNanos() + m.prefillNanos(150, 390);
    for (int[] uncached : new int[][] {{150, 390}, {250, 290}}) {
      double lane = m.baseNanos() + m.prefillNanos(uncached[0], uncached[1]);
      // in flight per engine at the bend, with the decode batch it implies
      double perEngine = 1 + m.decodeNanos(64, 4) / lane;
      assertThat(2 * perEngine).as("bend of the ladder (%s uncached tokens)", uncached[0]).isBetween(8.0, 32.0);
    }
    assertThat(prefill).isLessThan(m.decodeNanos(64) / 3.0);
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
