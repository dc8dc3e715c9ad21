package dev.srt.operator.emulator;

import java.util.Map;

/**
 * How long the emulated engine takes: a fixed overhead per request, a cost per prompt token that
 * missed the prefix cache (prefill) and a cost per generated token (decode), all divided by
 * {@code SRT_EMULATOR_SPEED}. The defaults make a canary request take about a millisecond and an
 * uncached 2k-token prompt about 90 ms of prefill against 5 ms when its 2048-token prefix is
 * cached: large enough against the emulator's own CPU overhead that cache-aware routing shows in
 * TTFT, small enough that a scaled benchmark fits in seconds.
 */
public record LatencyModel(double baseMs, double prefillMsPerToken, double decodeMsPerToken, double speed) {
  public static final LatencyModel DEFAULT = new LatencyModel(0.5, 0.04, 0.1, 1.0);

  public LatencyModel {
    if (!(speed > 0)) {
      throw new IllegalArgumentException("SRT_EMULATOR_SPEED must be a positive number, got " + speed);
    }
  }

  public static LatencyModel fromEnv(Map<String, String> env) {
    String speed = env.get("SRT_EMULATOR_SPEED");
    return speed == null || speed.isBlank()
        ? DEFAULT
        : new LatencyModel(DEFAULT.baseMs, DEFAULT.prefillMsPerToken, DEFAULT.decodeMsPerToken, Double.parseDouble(speed.trim()));
  }

  /** Per-request overhead (tokenizing, scheduling), paid outside the prefill lane. */
  public long baseNanos() {
    return nanos(baseMs);
  }

  /** Time the prefill lane is busy with the tokens the cache did not cover. */
  public long prefillNanos(int uncachedTokens) {
    return nanos(Math.max(0, uncachedTokens) * prefillMsPerToken);
  }

  public long decodeNanos(int tokens) {
    return nanos(Math.max(0, tokens) * decodeMsPerToken);
  }

  private long nanos(double ms) {
    return Math.round(ms * 1_000_000 / speed);
  }
}
