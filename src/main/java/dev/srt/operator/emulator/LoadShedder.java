package dev.srt.operator.emulator;

import com.sun.net.httpserver.HttpHandler;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A router front end that turns away a seeded fraction of inference requests with 503, as a
 * router shedding load does: {@code SRT_EMULATOR_FAIL_RATIO} (0..1, default 0). A request that
 * finds at most one other inference request in flight is always admitted, since a real router
 * sheds under load only; that also keeps the one-at-a-time readiness canary and the benchmark's
 * warm-up requests from failing a run. (One, not none: a client that sends requests one after
 * another can send the next before the server's thread has counted the last one as answered.)
 * The draws come from the process's {@link EmulatorSeed}.
 *
 * <p>{@code SRT_EMULATOR_SHED_ABOVE} (a whole number of requests, unset by default) models a router
 * that falls over under load: the first inference request that finds that many others in flight
 * is shed, and so is every one after it, for as long as the process lives, whatever the load. So
 * a load ladder whose levels climb past it measures some good requests at the first level above it
 * (those admitted before) and none at the levels after.
 */
public final class LoadShedder {
  public static final String RATIO_ENV = "SRT_EMULATOR_FAIL_RATIO";
  public static final String SHED_ABOVE_ENV = "SRT_EMULATOR_SHED_ABOVE";
  private static final String RATIO_EXPECTED = "a number from 0 to 1";
  private static final String SHED_ABOVE_EXPECTED = "a whole number of requests, at least 1";
  /** No collapse: {@code SRT_EMULATOR_SHED_ABOVE} unset. */
  static final int NEVER = Integer.MAX_VALUE;

  private final double ratio;
  private final int shedAbove;
  private final Random random;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean collapsed = new AtomicBoolean();

  public LoadShedder(double ratio, long seed) {
    this(ratio, NEVER, seed);
  }

  LoadShedder(double ratio, int shedAbove, long seed) {
    if (!(ratio >= 0 && ratio <= 1)) {
      throw EnvNumber.invalid(RATIO_ENV, RATIO_EXPECTED, ratio);
    }
    if (shedAbove < 1) {
      throw EnvNumber.invalid(SHED_ABOVE_ENV, SHED_ABOVE_EXPECTED, shedAbove);
    }
    this.ratio = ratio;
    this.shedAbove = shedAbove;
    this.random = new Random(seed);
  }

  /** {@code identity} names the router process, e.g. {@code sgl-router:8000}. */
  public static LoadShedder fromEnv(Map<String, String> env, String identity) {
    double ratio = EnvNumber.read(env, RATIO_ENV, 0, RATIO_EXPECTED);
    double above = EnvNumber.read(env, SHED_ABOVE_ENV, NEVER, SHED_ABOVE_EXPECTED);
    if (above != Math.rint(above) || above < 1) {
      throw EnvNumber.invalid(SHED_ABOVE_ENV, SHED_ABOVE_EXPECTED, above);
    }
    return new LoadShedder(ratio, (int) Math.min(above, NEVER), EmulatorSeed.of(env, identity + "/shed"));
  }

  public double ratio() {
    return ratio;
  }

  /**
   * Wraps the handler of an inference endpoint: a shed request gets 503 before it is read or
   * routed; the others go through and count as in flight until answered.
   */
  public HttpHandler guard(HttpHandler inference) {
    return ex -> {
      int found = inFlight.getAndIncrement();
      try {
        if (fellOver(found)) {
          Http.sendJson(ex, 503, Http.error("Service Unavailable: the router fell over under load (emulated, "
              + SHED_ABOVE_ENV + "=" + shedAbove + ")", "ServiceUnavailable", 503));
        } else if (found > 1 && draw()) {
          Http.sendJson(ex, 503, Http.error("Service Unavailable: the router is shedding load (emulated, "
              + RATIO_ENV + "=" + ratio + ")", "ServiceUnavailable", 503));
        } else {
          inference.handle(ex);
        }
      } finally {
        inFlight.decrementAndGet();
      }
    };
  }

  /** Whether a request that found {@code others} in flight is shed because the router fell over (now, or earlier). */
  boolean fellOver(int others) {
    if (others >= shedAbove) {
      collapsed.set(true);
    }
    return collapsed.get();
  }

  /** One seeded draw: true for a shed request. */
  synchronized boolean draw() {
    return ratio > 0 && random.nextDouble() < ratio;
  }
}
