package dev.srt.operator.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * Where the pinned environment of real programs lives (the real AIPerf, the SGLang Model Gateway,
 * Dynamo's frontend, sidecar and mocker), which {@code .ci/install-real-programs.sh} installs from
 * the lock file {@code real-programs.lock} beside this class. Its directory is named after the
 * lock's hash, so this jar only ever finds the environment of its own lock: the versions it runs are
 * the versions it was built with.
 */
public final class RealPrograms {
  /** An explicit environment (a virtualenv directory), which wins over the default location. */
  public static final String ENV_VAR = "SRT_REAL_PROGRAMS";
  /** The directory holding one environment per lock hash. */
  public static final String HOME_VAR = "SRT_REAL_PROGRAMS_HOME";
  /** The lock file, a resource beside this class. */
  public static final String LOCK = "real-programs.lock";
  /** Written last by the install script: an environment without it is half-installed. */
  static final String COMPLETE = ".complete";

  private RealPrograms() {}

  /** The environment of this jar's lock, if one is installed completely. */
  public static Optional<Path> environment() {
    return environment(System.getenv());
  }

  static Optional<Path> environment(Map<String, String> env) {
    String explicit = env.get(ENV_VAR);
    Path dir = explicit != null && !explicit.isBlank() ? Path.of(explicit) : home(env).resolve(lockHash());
    return Files.isRegularFile(dir.resolve(COMPLETE)) && Files.isExecutable(dir.resolve("bin/python"))
        ? Optional.of(dir.toAbsolutePath().normalize()) : Optional.empty();
  }

  static Path home(Map<String, String> env) {
    String home = env.get(HOME_VAR);
    if (home != null && !home.isBlank()) {
      return Path.of(home);
    }
    String cache = env.get("XDG_CACHE_HOME");
    Path base = cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("srt-operator").resolve("real-programs");
  }

  /** The first 16 hex digits of the lock's SHA-256, as the install script names the environment. */
  public static String lockHash() {
    try (InputStream in = RealPrograms.class.getResourceAsStream(LOCK)) {
      if (in == null) {
        throw new IllegalStateException(LOCK + " is missing from the jar");
      }
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(in.readAllBytes())).substring(0, 16);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
