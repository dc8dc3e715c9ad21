package dev.srt.operator.emulator;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Map;

/**
 * The seed of one emulated process's random choices (its speed, its jitter, the requests a router
 * sheds): {@code SRT_EMULATOR_SEED} (a random one when unset), the run's {@code SRT_RUN_ID} (which
 * the rendered scripts export) and the process's identity (program and port), hashed together. So
 * two repetitions of an arm (different run ids) draw independently, the two engines of one run
 * differ, and the same seed and run id replay the same draws.
 */
public final class EmulatorSeed {
  public static final String SEED_ENV = "SRT_EMULATOR_SEED";
  public static final String RUN_ID_ENV = "SRT_RUN_ID";

  private EmulatorSeed() {}

  /** {@code identity} names the process within its run, e.g. {@code sglang:6100}, plus what the draws are for. */
  public static long of(Map<String, String> env, String identity) {
    String seed = env.get(SEED_ENV);
    String base = seed == null || seed.isBlank() ? Long.toString(new SecureRandom().nextLong()) : seed.trim();
    return hash(base + "\u0000" + env.getOrDefault(RUN_ID_ENV, "") + "\u0000" + identity);
  }

  /** SHA-256 rather than String.hashCode: nearby run ids ("r1", "r2") must give unrelated seeds. */
  static long hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
