package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadShedderTest {
  private static int shed(LoadShedder s, int n) {
    int shed = 0;
    for (int i = 0; i < n; i++) {
      shed += s.draw() ? 1 : 0;
    }
    return shed;
  }

  @Test
  void shedsTheConfiguredFractionWithinBinomialTolerance() {
    for (double ratio : new double[] {0.05, 0.2, 0.5}) {
      int n = 4000;
      LoadShedder s = LoadShedder.fromEnv(Map.of("SRT_EMULATOR_FAIL_RATIO", Double.toString(ratio), "SRT_RUN_ID", "r1"), "sgl-router:8000");
      double sigma = Math.sqrt(n * ratio * (1 - ratio));
      assertThat((double) shed(s, n)).as("ratio %s", ratio).isBetween(n * ratio - 4 * sigma, n * ratio + 4 * sigma);
    }
  }

  @Test
  void noneByDefaultAndAllAtOne() {
    assertThat(shed(LoadShedder.fromEnv(Map.of(), "sgl-router:8000"), 1000)).isZero();
    assertThat(shed(LoadShedder.fromEnv(Map.of("SRT_EMULATOR_FAIL_RATIO", "1"), "sgl-router:8000"), 1000)).isEqualTo(1000);
  }

  @Test
  void theSameSeedAndRunShedTheSameRequests() {
    Map<String, String> env = Map.of("SRT_EMULATOR_FAIL_RATIO", "0.3", "SRT_EMULATOR_SEED", "5", "SRT_RUN_ID", "r9");
    assertThat(draws(LoadShedder.fromEnv(env, "dynamo-frontend:8000"))).isEqualTo(draws(LoadShedder.fromEnv(env, "dynamo-frontend:8000")));
    Map<String, String> next = Map.of("SRT_EMULATOR_FAIL_RATIO", "0.3", "SRT_EMULATOR_SEED", "5", "SRT_RUN_ID", "r10");
    assertThat(draws(LoadShedder.fromEnv(next, "dynamo-frontend:8000"))).isNotEqualTo(draws(LoadShedder.fromEnv(env, "dynamo-frontend:8000")));
  }

  private static List<Boolean> draws(LoadShedder s) {
    List<Boolean> d = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      d.add(s.draw());
    }
    return d;
  }

  @Test
  void rejectsARatioOutsideZeroToOne() {
    for (String bad : List.of("1.5", "-0.1", "half", "NaN")) {
      assertThatThrownBy(() -> LoadShedder.fromEnv(Map.of("SRT_EMULATOR_FAIL_RATIO", bad), "sgl-router:8000"))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SRT_EMULATOR_FAIL_RATIO");
    }
  }
}
