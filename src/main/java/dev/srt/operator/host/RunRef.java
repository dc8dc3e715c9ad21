package dev.srt.operator.host;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One run of one arm: {@code <namespace>/<comparison>/<arm>/<runId>}. Each part becomes a
 * directory name on the host, so it must not be empty, {@code .}, {@code ..}, or contain
 * {@code /}, NUL or a line break; anything else is allowed (and quoted wherever it is used).
 */
public record RunRef(String namespace, String comparison, String arm, String runId) {
  /** Longest Slurm job name we produce. */
  public static final int MAX_JOB_NAME = 128;
  private static final int HASH_CHARS = 10;

  public RunRef {
    checkPart("namespace", namespace);
    checkPart("comparison", comparison);
    checkPart("arm", arm);
    checkPart("runId", runId);
  }

  private static void checkPart(String what, String value) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty() || value.equals(".") || value.equals("..")
        || value.chars().anyMatch(c -> c == '/' || c == 0 || c == '\n' || c == '\r')) {
      throw new IllegalArgumentException(what + " cannot be a directory name: " + value);
    }
  }

  /**
   * {@code srt-<namespace>-<comparison>-<arm>-<runId>}, made of {@code [a-z0-9-]} only and at most
   * {@value #MAX_JOB_NAME} characters. A name that had to be changed to get there ends in a hash of
   * the original, so two runs never share a name by accident.
   */
  public String jobName() {
    String raw = "srt-" + namespace + "-" + comparison + "-" + arm + "-" + runId;
    String clean = raw.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    if (clean.equals(raw) && raw.length() <= MAX_JOB_NAME) {
      return raw;
    }
    String hash = sha256Hex(raw).substring(0, HASH_CHARS);
    int keep = Math.min(clean.length(), MAX_JOB_NAME - HASH_CHARS - 1);
    return clean.substring(0, keep) + "-" + hash;
  }

  /** Identifies the run's Slurm job exactly (its {@code --comment}), whatever its name became. */
  public String marker() {
    return "srt-operator:" + namespace + "/" + comparison + "/" + arm + "/" + runId;
  }

  /** {@code <workDir>/<namespace>/<comparison>/<arm>/<runId>} on the host. */
  public String runDir(String workDir) {
    if (workDir == null || !workDir.startsWith("/")) {
      throw new IllegalArgumentException("workDir must be an absolute path: " + workDir);
    }
    String base = workDir.replaceAll("/+$", "");
    return base + "/" + namespace + "/" + comparison + "/" + arm + "/" + runId;
  }

  @Override
  public String toString() {
    return namespace + "/" + comparison + "/" + arm + "/" + runId;
  }

  private static String sha256Hex(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
