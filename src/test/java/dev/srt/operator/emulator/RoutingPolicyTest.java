package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.emulator.RoutingPolicy.Candidate;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoutingPolicyTest {
  private final RoutingPolicy cacheAware = RoutingPolicy.TwoTierCacheAware.sglRouterDefaults();

  @Test
  void cacheAwareFollowsTheLongestPrefixWhenItCoversMoreThanHalfTheRequest() {
    RoutingPolicy.Choice c = cacheAware.choose(10, List.of(new Candidate(5, 0, 0), new Candidate(9, 0, 6)));
    assertThat(c.index()).isEqualTo(1);
    assertThat(c.decision()).isEqualTo("cache_hit");
  }

  @Test
  void cacheAwareNeedsStrictlyMoreThanTheThreshold() {
    RoutingPolicy.Choice c = cacheAware.choose(10, List.of(new Candidate(1, 0, 0), new Candidate(9, 0, 5)));
    assertThat(c.index()).isZero();
    assertThat(c.decision()).isEqualTo("cache_miss");
  }

  @Test
  void cacheAwareBalancesLoadFirstWhenTheSpreadIsLarge() {
    RoutingPolicy.Choice c = cacheAware.choose(10, List.of(new Candidate(1, 0, 0), new Candidate(40, 0, 10)));
    assertThat(c.index()).isZero();
  }

  @Test
  void aLargeAbsoluteSpreadWithinTheRelativeBoundStillFollowsTheCache() {
    RoutingPolicy.Choice c = cacheAware.choose(10, List.of(new Candidate(400, 0, 0), new Candidate(433, 0, 10)));
    assertThat(c.index()).isEqualTo(1);
  }

  @Test
  void amongEqualOverlapsTheLeastLoadedWins() {
    RoutingPolicy.Choice c = cacheAware.choose(10, List.of(new Candidate(7, 0, 8), new Candidate(3, 0, 8), new Candidate(0, 0, 2)));
    assertThat(c.index()).isEqualTo(1);
  }

  @Test
  void kvCostTradesCachedBlocksAgainstActiveBlocks() {
    RoutingPolicy kv = new RoutingPolicy.KvCost(1.0, new RoutingPolicy.TieBreaker());
    assertThat(kv.choose(100, List.of(new Candidate(1, 10, 0), new Candidate(1, 10, 80))).index()).isEqualTo(1);
    assertThat(kv.choose(100, List.of(new Candidate(1, 10, 0), new Candidate(9, 200, 80))).index()).isZero();
  }

  @Test
  void roundRobinCyclesAndLeastLoadedSpreadsTies() {
    RoutingPolicy rr = RoutingPolicy.roundRobin();
    List<Candidate> two = List.of(new Candidate(0, 0, 0), new Candidate(0, 0, 0));
    assertThat(List.of(rr.choose(0, two).index(), rr.choose(0, two).index(), rr.choose(0, two).index())).containsExactly(0, 1, 0);
    RoutingPolicy ll = RoutingPolicy.leastLoaded();
    assertThat(List.of(ll.choose(0, two).index(), ll.choose(0, two).index())).containsExactlyInAnyOrder(0, 1);
    assertThat(ll.choose(0, List.of(new Candidate(3, 0, 0), new Candidate(1, 0, 0))).index()).isEqualTo(1);
  }
}
