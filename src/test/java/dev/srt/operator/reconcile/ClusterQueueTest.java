package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterQueueTest {
  final List<ResourceID> woken = new ArrayList<>();
  final ClusterQueue queue = new ClusterQueue(woken::add);
  final ResourceID a = new ResourceID("a", "bench");
  final ResourceID b = new ResourceID("b", "bench");
  final ResourceID c = new ResourceID("c", "team");
  final Instant t0 = Instant.parse("2026-12-01T00:00:00Z");

  @Test
  void comparisonsTakeTheHostInArrivalOrderAndTheNextIsWokenWhenOneLeaves() {
    assertThat(queue.want("bench/box", a, t0, false).mayStart()).isTrue();
    assertThat(queue.want("bench/box", c, t0.plusSeconds(9), false)).isEqualTo(new ClusterQueue.Place(1, a));
    assertThat(queue.want("bench/box", b, t0.plusSeconds(5), false)).isEqualTo(new ClusterQueue.Place(1, a));
    assertThat(queue.placeOf(c)).get().isEqualTo(new ClusterQueue.Place(2, a));

    queue.leave(a);
    assertThat(woken).containsExactly(b, c);
    assertThat(queue.placeOf(b)).get().isEqualTo(new ClusterQueue.Place(0, null));
    assertThat(queue.placeOf(c)).get().isEqualTo(new ClusterQueue.Place(1, b));
    assertThat(queue.placeOf(a)).isEmpty();
  }

  @Test
  void theComparisonGivenItsTurnKeepsItAgainstEarlierArrivalsThatAskLater() {
    assertThat(queue.want("bench/box", b, t0.plusSeconds(5), false).mayStart()).isTrue();
    assertThat(queue.want("bench/box", a, t0, false)).isEqualTo(new ClusterQueue.Place(1, b));
  }

  @Test
  void aComparisonWithARunKeepsTheHostAgainstEarlierArrivals() {
    // After a restart, b's run is found before a (created earlier) asks again.
    assertThat(queue.want("bench/box", b, t0.plusSeconds(5), true).mayStart()).isTrue();
    assertThat(queue.want("bench/box", a, t0, false)).isEqualTo(new ClusterQueue.Place(1, b));
    // b stays first between its arms, even when it says it has no run in flight right now.
    assertThat(queue.want("bench/box", b, t0.plusSeconds(5), false).mayStart()).isTrue();
  }

  @Test
  void clustersQueueIndependentlyAndMovingToAnotherClusterLeavesTheFirst() {
    assertThat(queue.want("bench/box", a, t0, false).mayStart()).isTrue();
    assertThat(queue.want("bench/other", b, t0.plusSeconds(1), false).mayStart()).isTrue();
    assertThat(queue.want("bench/box", c, t0.plusSeconds(2), false).mayStart()).isFalse();
    assertThat(queue.want("bench/other", a, t0, false)).isEqualTo(new ClusterQueue.Place(1, b));
    assertThat(woken).containsExactly(c);
    assertThat(queue.placeOf(c)).get().isEqualTo(new ClusterQueue.Place(0, null));
  }
}
