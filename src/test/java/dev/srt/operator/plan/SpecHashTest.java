package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.SloSpec;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What reruns an arm: the load ladder and the SLO change what a run measures; how runs are judged does not. */
class SpecHashTest {
  private static String hash(Consumer<RouterComparison> change) {
    RouterComparison rc = Examples.comparison();
    change.accept(rc);
    return SpecHash.of(rc.getSpec(), rc.getSpec().arms.get(0), null);
  }

  private static LoadSpec ladder(Double... levels) {
    LoadSpec load = new LoadSpec();
    load.mode = LoadSpec.CONCURRENCY;
    load.levels = List.of(levels);
    return load;
  }

  @Test
  void aChangedLoadLadderOrSloReruns() {
    String plain = hash(rc -> {});
    String ladder = hash(rc -> rc.getSpec().workload.load = ladder(8.0, 16.0));
    assertThat(ladder).isNotEqualTo(plain);
    assertThat(hash(rc -> rc.getSpec().workload.load = ladder(8.0, 16.0, 32.0))).isNotEqualTo(ladder);
    SloSpec slo = new SloSpec();
    slo.ttftMs = 2000.0;
    String withSlo = hash(rc -> rc.getSpec().slo = slo);
    assertThat(withSlo).isNotEqualTo(plain);
    SloSpec stricter = new SloSpec();
    stricter.ttftMs = 1000.0;
    assertThat(hash(rc -> rc.getSpec().slo = stricter)).isNotEqualTo(withSlo);
  }

  @Test
  void verdictSettingsRerunNothing() {
    String plain = hash(rc -> {});
    assertThat(hash(rc -> {
      rc.getSpec().execution = new ExecutionSpec();
      rc.getSpec().execution.verdictMetrics = List.of("p90_ttft_ms");
      rc.getSpec().execution.equivalenceMargin = 0.05;
    })).isEqualTo(plain);
  }
}
