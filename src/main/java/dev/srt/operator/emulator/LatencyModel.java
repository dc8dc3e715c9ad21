package dev.srt.operator.emulator;

import java.util.Map;

/**
 * How long the emulated engine takes: a fixed overhead per request, a cost per prompt token that
 * missed the prefix cache (prefill), a much smaller cost per prompt token the cache served (a GPU
 * still reads its KV blocks) and a cost per generated token (decode) that grows with the number of
 * requests decoding at once (a bigger batch makes each step longer), all divided by
 * {@code SRT_EMULATOR_SPEED} and by the process's {@link RunNoise} speed factor, each step times
 * the noise's jitter.
 *
 * <p>The defaults make an uncached 2k-token prompt cost about 300 ms of prefill against about 35 ms
 * when its 2048-token prefix is cached: large enough that the prefill lane, not the emulator's own
 * CPU use, limits a benchmark on a busy 2-core machine, so cache hits show in TTFT and throughput,
 * and small enough that a scaled benchmark fits in seconds. A token takes 2 ms to decode alone
 * (a 64-token reply about 130 ms), several times a prompt's prefill: so an engine is far from busy
 * with a few requests in flight and saturates (its prefill lane always busy) at about half a dozen
 * in flight, which is where a concurrency ladder such as 4, 8, 16, 32, 64 over two workers bends.
 */
public record LatencyModel(double baseMs, double prefillMsPerToken, double cachedMsPerToken, double decodeMsPerToken,
    double decodeBatchKnee, double speed, RunNoise noise) {
  static final String SPEED_ENV = "SRT_EMULATOR_SPEED";
  private static final String SPEED_EXPECTED = "a positive number";
  public static final LatencyModel DEFAULT = new LatencyModel(0.5, 0.15, 0.0075, 2.0, 32, 1.0, RunNoise.NONE);

  public LatencyModel {
    if (!(speed > 0) || Double.isInfinite(speed)) {
      throw EnvNumber.invalid(SPEED_ENV, SPEED_EXPECTED, speed);
    }
  }

  /** The defaults with {@code SRT_EMULATOR_SPEED} and the noise of the process {@code identity} ({@link EmulatorSeed}). */
  public static LatencyModel fromEnv(Map<String, String> env, String identity) {
    double s = EnvNumber.read(env, SPEED_ENV, 1.0, SPEED_EXPECTED);
    return new LatencyModel(DEFAULT.baseMs, DEFAULT.prefillMsPerToken, DEFAULT.cachedMsPerToken, DEFAULT.decodeMsPerToken,
        DEFAULT.decodeBatchKnee, s, RunNoise.fromEnv(env, identity));
  }

  /** Per-request overhead (tokenizing, scheduling), paid outside the prefill lane. */
  public long baseNanos() {
    return nanos(baseMs);
  }

  /** Time the prefill lane is busy with a prompt: full cost for the tokens the cache missed, a little for the rest. */
  public long prefillNanos(int uncachedTokens, int cachedTokens) {
    return nanos(Math.max(0, uncachedTokens) * prefillMsPerToken + Math.max(0, cachedTokens) * cachedMsPerToken);
  }

  /** Decoding {@code tokens} alone. */
  public long decodeNanos(int tokens) {
    return decodeNanos(tokens, 1);
  }

  /**
   * Decoding {@code tokens} while {@code batch} requests decode (this one included): each token
   * costs {@code decodeMsPerToken × (1 + (batch - 1) / decodeBatchKnee)}, so a batch of 33 takes
   * twice as long per step as one request alone, and the engine's decode throughput keeps growing
   * with the batch, ever more slowly.
   */
  public long decodeNanos(int tokens, int batch) {
    return nanos(Math.max(0, tokens) * decodeMsPerToken * (1 + Math.max(0, batch - 1) / decodeBatchKnee));
  }

  private long nanos(double ms) {
    return Math.round(ms * 1_000_000 / (speed * noise.speedFactor()) * noise.jitter());
  }
}
