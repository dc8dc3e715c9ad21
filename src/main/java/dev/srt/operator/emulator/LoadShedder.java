package dev.srt.operator.emulator;

import com.sun.net.httpserver.HttpHandler;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A router front end that turns away a seeded fraction of inference requests with 503, as a
 * router shedding load does: {@code SRT_EMULATOR_FAIL_RATIO} (0..1, default 0). A request that
 * finds at most one other inference request in flight is always admitted, since a real router
 * sheds under load only; that also keeps the one-at-a-time readiness canary and the benchmark's
 * warm-up requests from failing a run. (One, not none: a client that sends requests one after
 * another can send the next before the server's thread has counted the last one as answered.)
 * The draws come from the process's {@link EmulatorSeed}.
 */
public final class LoadShedder {
  public static final String RATIO_ENV = "SRT_EMULATOR_FAIL_RATIO";
  private static final String RATIO_EXPECTED = "a number from 0 to 1";

  private final double ratio;
  private final Random random;
  private final AtomicInteger inFlight = new AtomicInteger();

  public LoadShedder(double ratio, long seed) {
    if (!(ratio >= 0 && ratio <= 1)) {
      throw EnvNumber.invalid(RATIO_ENV, RATIO_EXPECTED, ratio);
    }
    this.ratio = ratio;
    this.random = new Random(seed);
  }

  /** {@code identity} names the router process, e.g. {@code sgl-router:8000}. */
  public static LoadShedder fromEnv(Map<String, String> env, String identity) {
    double ratio = EnvNumber.read(env, RATIO_ENV, 0, RATIO_EXPECTED);
    return new LoadShedder(ratio, EmulatorSeed.of(env, identity + "/shed"));
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
      boolean others = inFlight.getAndIncrement() > 1;
      try {
        if (others && draw()) {
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

  /** One seeded draw: true for a shed request. */
  synchronized boolean draw() {
    return ratio > 0 && random.nextDouble() < ratio;
  }
}
