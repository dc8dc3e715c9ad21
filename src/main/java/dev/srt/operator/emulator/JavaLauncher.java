package dev.srt.operator.emulator;

import dev.srt.operator.base.Shell;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How generated shims and stand-in binaries start this jar again: absolute java and jar paths
 * (scripts run with any PATH and working directory) and JVM flags that favour start-up time,
 * since one arm starts a dozen short-lived JVMs.
 */
public record JavaLauncher(Path java, Path jar) {
  public static final List<String> JVM_FLAGS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k", "-Xmx128m", "-Xshare:auto");

  public JavaLauncher {
    java = java.toAbsolutePath().normalize();
    jar = jar.toAbsolutePath().normalize();
  }

  /** This JVM and the jar it runs from; {@code jarOverride} wins (tests run from classes/). */
  public static JavaLauncher current(Path jarOverride) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path jar = jarOverride != null ? jarOverride : runningJar();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("not running from a jar (" + jar + "): pass --jar <srt-operator.jar>");
    }
    return new JavaLauncher(java, jar);
  }

  private static Path runningJar() {
    try {
      return Path.of(JavaLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code java <flags> -jar <jar> emulate <args...>}, shell-quoted. */
  public String emulateCommand(String... args) {
    List<String> argv = new ArrayList<>();
    argv.add(java.toString());
    argv.addAll(JVM_FLAGS);
    argv.add("-jar");
    argv.add(jar.toString());
    argv.add("emulate");
    argv.addAll(List.of(args));
    return Shell.join(argv);
  }
}
