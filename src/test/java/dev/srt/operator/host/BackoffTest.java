package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void withoutJitterDelaysDoubleUpToTheCap() {
    Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(1000), 2.0, 0.0);
    assertThat(b.delay(0)).isEqualTo(Duration.ofMillis(100));
    assertThat(b.delay(1)).isEqualTo(Duration.ofMillis(200));
    assertThat(b.delay(3)).isEqualTo(Duration.ofMillis(800));
    assertThat(b.delay(4)).isEqualTo(Duration.ofMillis(1000));
    assertThat(b.delay(60)).isEqualTo(Duration.ofMillis(1000));
  }

  @Test
  void jitterOnlyShortensAndStaysWithinItsFraction() {
    Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10), 2.0, 0.3, new Random(42));
    for (int retry = 0; retry < 10; retry++) {
      double ceiling = Math.min(10_000, 100 * Math.pow(2, retry));
      for (int i = 0; i < 50; i++) {
        long ms = b.delay(retry).toMillis();
        assertThat(ms).isBetween((long) (ceiling * 0.7) - 1, (long) ceiling);
      }
    }
  }

  @Test
  void jitterSpreadsDelays() {
    Backoff b = new Backoff(Duration.ofMillis(1000), Duration.ofSeconds(10), 2.0, 0.5, new Random(7));
    assertThat(java.util.stream.IntStream.range(0, 20).mapToObj(i -> b.delay(0)).distinct().count())
        .isGreaterThan(10);
  }

  @Test
  void seededRandomIsReproducible() {
    Backoff a = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), 2.0, 0.3, new Random(1));
    Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), 2.0, 0.3, new Random(1));
    for (int i = 0; i < 5; i++) {
      assertThat(a.delay(i)).isEqualTo(b.delay(i));
    }
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), 2, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 2, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), 0.5, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), 2, 1.5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Backoff.reconnectDefault().delay(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
