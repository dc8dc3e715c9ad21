package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrefillLaneTest {
  private static final long MS = 1_000_000;

  @Test
  void anIdleLaneStartsNowAndBookingsQueueBehindEachOther() {
    PrefillLane lane = new PrefillLane();
    long before = System.nanoTime();
    long first = lane.book(50 * MS);
    long second = lane.book(30 * MS);
    long third = lane.book(0);
    assertThat(first - before).isBetween(50 * MS, 60 * MS);
    assertThat(second - first).isEqualTo(30 * MS);
    assertThat(third).isEqualTo(second);
  }
}
