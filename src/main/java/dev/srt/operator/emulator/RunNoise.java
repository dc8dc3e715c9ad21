package dev.srt.operator.emulator;

import java.util.Map;
import java.util.Random;

/**
 * How much one engine process differs from its nominal speed, as a real GPU box does from run to
 * run (clocks, thermals, placement): a speed factor drawn once when the process starts, and a
 * small jitter on every timed step. Both are log-normal with mean 1, so noise never changes what
 * the costs are on average, only how they scatter. {@code SRT_EMULATOR_NOISE} scales both
 * (default 1; 0 turns the noise off).
 */
public final class RunNoise {
  /** Spread (log-normal sigma) of the per-process speed factor: a few percent run to run. */
  static final double RUN_SIGMA = 0.04;
  /** Spread of each timed step; averages out over a benchmark's hundreds of requests. */
  static final double STEP_SIGMA = 0.10;

  static final String SCALE_ENV = "SRT_EMULATOR_NOISE";
  private static final String SCALE_EXPECTED = "a non-negative number";

  public static final RunNoise NONE = new RunNoise(1.0, 0, new Random(0));

  private final double speedFactor;
  private final double stepSigma;
  private final Random random;

  RunNoise(double speedFactor, double stepSigma, Random random) {
    this.speedFactor = speedFactor;
    this.stepSigma = stepSigma;
    this.random = random;
  }

  /** Draws the process's speed factor from its {@link EmulatorSeed}; the same seed gives the same noise. */
  public static RunNoise seeded(long seed, double scale) {
    if (!(scale >= 0) || Double.isInfinite(scale)) {
      throw EnvNumber.invalid(SCALE_ENV, SCALE_EXPECTED, scale);
    }
    if (scale == 0) {
      return NONE;
    }
    Random r = new Random(seed);
    return new RunNoise(logNormal(r, RUN_SIGMA * scale), STEP_SIGMA * scale, r);
  }

  public static RunNoise fromEnv(Map<String, String> env, String identity) {
    return seeded(EmulatorSeed.of(env, identity + "/speed"), EnvNumber.read(env, SCALE_ENV, 1.0, SCALE_EXPECTED));
  }

  /** Above 1 the process is faster than nominal for its whole life. */
  public double speedFactor() {
    return speedFactor;
  }

  /** The multiplier of one timed step (mean 1). */
  public synchronized double jitter() {
    return stepSigma == 0 ? 1.0 : logNormal(random, stepSigma);
  }

  /** exp(sigma·Z − sigma²/2): mean exactly 1, never negative. */
  private static double logNormal(Random r, double sigma) {
    return Math.exp(sigma * r.nextGaussian() - sigma * sigma / 2);
  }
}
