package dev.srt.operator.host;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter: the n-th retry waits about {@code initial * multiplier^n},
 * capped at {@code max}, and then randomly shortened by up to {@code jitter} (a fraction) so that
 * many clients that lost the same host do not reconnect in lockstep.
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private final double multiplier;
  private final double jitter;
  private final DoubleSupplier random;

  public Backoff(Duration initial, Duration max, double multiplier, double jitter) {
    this(initial, max, multiplier, jitter, () -> ThreadLocalRandom.current().nextDouble());
  }

  /** With a seeded {@link Random} for reproducible delays (tests). */
  public Backoff(Duration initial, Duration max, double multiplier, double jitter, Random random) {
    this(initial, max, multiplier, jitter, random::nextDouble);
  }

  private Backoff(Duration initial, Duration max, double multiplier, double jitter, DoubleSupplier random) {
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("need 0 < initial <= max, got " + initial + ", " + max);
    }
    if (multiplier < 1.0) {
      throw new IllegalArgumentException("multiplier must be >= 1: " + multiplier);
    }
    if (jitter < 0.0 || jitter > 1.0) {
      throw new IllegalArgumentException("jitter must be in [0, 1]: " + jitter);
    }
    this.initial = initial;
    this.max = max;
    this.multiplier = multiplier;
    this.jitter = jitter;
    this.random = random;
  }

  /** Reconnects: 0.5 s, 1 s, 2 s, ... up to 10 s, each up to 30 % shorter. */
  public static Backoff reconnectDefault() {
    return new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10), 2.0, 0.3);
  }

  /** How long to wait before retry number {@code retry} (0 for the first retry). */
  public Duration delay(int retry) {
    if (retry < 0) {
      throw new IllegalArgumentException("retry must be >= 0: " + retry);
    }
    double ceiling = Math.min(max.toNanos(), initial.toNanos() * Math.pow(multiplier, retry));
    double jittered = ceiling * (1.0 - jitter * random.getAsDouble());
    return Duration.ofNanos((long) jittered);
  }
}
