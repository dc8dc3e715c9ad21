package dev.srt.operator.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium, run once per call on a local file: its DOM after rendering, or a
 * screenshot. Each call gets its own profile directory and no network (every host name resolves to
 * nothing), so a page that needed anything from outside would show it.
 */
final class Chromium {
  private static final long TIMEOUT_SECONDS = 90;

  private final Path binary;

  private Chromium(Path binary) {
    this.binary = binary;
  }

  /** The first of chromium, chromium-browser on PATH. */
  static Optional<Chromium> find() {
    String path = System.getenv("PATH");
    for (String name : List.of("chromium", "chromium-browser")) {
      for (String dir : path == null ? new String[0] : path.split(java.io.File.pathSeparator)) {
        Path candidate = Path.of(dir, name);
        if (Files.isExecutable(candidate)) {
          return Optional.of(new Chromium(candidate));
        }
      }
    }
    return Optional.empty();
  }

  /** The document as Chromium built it from {@code page}, serialized. */
  String dumpDom(Path page) throws IOException, InterruptedException {
    return run(List.of("--dump-dom", page.toUri().toString()), 1280, 900);
  }

  /** The document as Chromium built it from {@code page} in a window {@code width} pixels wide. */
  String dumpDom(Path page, int width) throws IOException, InterruptedException {
    return run(List.of("--dump-dom", page.toUri().toString()), width, 900);
  }

  /** A {@code width} × {@code height} screenshot of {@code page} into {@code png}. */
  void screenshot(Path page, Path png, int width, int height) throws IOException, InterruptedException {
    Files.deleteIfExists(png);
    run(List.of("--screenshot=" + png.toAbsolutePath(), page.toUri().toString()), width, height);
    if (!Files.isRegularFile(png)) {
      throw new IOException("chromium wrote no screenshot to " + png);
    }
  }

  private String run(List<String> args, int width, int height) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("srt-chromium-");
    Path stdout = profile.resolve("stdout");
    Path stderr = profile.resolve("stderr");
    List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
        "--disable-background-networking", "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1",
        "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=" + profile, "--window-size=" + width + "," + height));
    command.addAll(args);
    Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    try {
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new IOException("chromium did not finish within " + TIMEOUT_SECONDS + " s: " + tail(stderr));
      }
      if (p.exitValue() != 0) {
        throw new IOException("chromium exited with " + p.exitValue() + ": " + tail(stderr));
      }
      return Files.readString(stdout, StandardCharsets.UTF_8);
    } finally {
      // Chromium forks renderer and utility processes: end them with it.
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
      deleteTree(profile);
    }
  }

  private static String tail(Path file) throws IOException {
    String s = Files.readString(file, StandardCharsets.UTF_8);
    return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
