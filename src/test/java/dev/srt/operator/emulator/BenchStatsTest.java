package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchStatsTest {
  @Test
  void matchesNumpy() {
    // numpy: mean 2.5, median 2.5, std (ddof=0) 1.118033988749895, percentile 99 -> 3.97, 90 -> 3.7
    BenchStats s = new BenchStats(List.of(4.0, 1.0, 3.0, 2.0));
    assertThat(s.mean()).isEqualTo(2.5);
    assertThat(s.median()).isEqualTo(2.5);
    assertThat(s.std()).isCloseTo(1.118033988749895, within(1e-12));
    assertThat(s.percentile(99)).isCloseTo(3.97, within(1e-12));
    assertThat(s.percentile(90)).isCloseTo(3.7, within(1e-12));
    assertThat(s.max()).isEqualTo(4.0);
  }

  @Test
  void emptyListsReportZeros() {
    BenchStats s = new BenchStats(List.of());
    assertThat(List.of(s.mean(), s.median(), s.std(), s.percentile(99))).containsOnly(0.0);
  }

  @Test
  void sharedPrefixWorkloadIsDeterministicAndSharesPrefixesWithinGroups() {
    List<BenchWorkload.Prompt> a = BenchWorkload.sharedPrefix(4, 3, 50, 10, 8, true, 7);
    assertThat(a).isEqualTo(BenchWorkload.sharedPrefix(4, 3, 50, 10, 8, true, 7));
    assertThat(a).hasSize(12);
    assertThat(a.get(0).promptLen()).isEqualTo(60);
    assertThat(a.get(0).text().split("\n\n")[0]).isEqualTo(a.get(2).text().split("\n\n")[0]).isNotEqualTo(a.get(3).text().split("\n\n")[0]);
    assertThat(ChatPrompt.countWords(a.get(0).text())).isEqualTo(60);
    assertThat(BenchWorkload.sharedPrefix(4, 3, 50, 10, 8, false, 7)).isNotEqualTo(a).containsExactlyInAnyOrderElementsOf(a);
  }

  @Test
  void randomWorkloadRespectsTheRangeRatio() {
    List<BenchWorkload.Prompt> p = BenchWorkload.random(50, 100, 20, 0.5, 1);
    assertThat(p).allSatisfy(x -> {
      assertThat(x.promptLen()).isBetween(50, 100);
      assertThat(ChatPrompt.countWords(x.text())).isEqualTo(x.promptLen());
      assertThat(x.outputLen()).isBetween(10, 20);
    });
  }
}
