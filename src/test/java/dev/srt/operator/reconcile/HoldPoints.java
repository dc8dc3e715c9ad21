package dev.srt.operator.reconcile;

import dev.srt.operator.base.Shell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * Points where a run on the emulated host waits until the test lets it go on, so that it stays in
 * one phase for as long as the test needs (an operator killed and started again meanwhile): shims
 * put before the emulator's on the GpuCluster's {@code path}, which hold the step they stand for
 * until its release file exists, then hand over to the emulator's own shim unchanged.
 *
 * <ul>
 *   <li>{@link #BUILDING}: {@code cargo} (sgl-router's build stage);
 *   <li>{@link #STARTING}: {@code python3 -m sglang.launch_server} (the engines: no worker healthy);
 *   <li>{@link #READY}: the scrape of the metrics before the benchmark (after the {@code ready} event);
 *   <li>{@link #BENCHMARKING}: {@code python3 -m sglang.benchmark.serving} (after the {@code benchmarking} event).
 * </ul>
 */
final class HoldPoints {
  static final String BUILDING = "building";
  static final String STARTING = "starting";
  static final String READY = "ready";
  static final String BENCHMARKING = "benchmarking";
  static final List<String> ALL = List.of(BUILDING, STARTING, READY, BENCHMARKING);

  private final Path dir;

  private HoldPoints(Path dir) {
    this.dir = dir;
  }

  /** Writes the hold shims into {@code dir/bin}, each handing over to the shim of the same name in {@code emulatorBin}. */
  static HoldPoints install(Path dir, Path emulatorBin) throws IOException {
    Files.createDirectories(dir.resolve("bin"));
    String hold = """
        #!/usr/bin/env bash
        # A hold point of OperatorRestartIT (HoldPoints): waits until the test releases it.
        holds=%s
        hold() {
          : >"$holds/reached-$1"
          until [ -e "$holds/released-$1" ]; do sleep 0.1; done
        }
        """.formatted(Shell.quote(dir.toString()));
    shim(dir.resolve("bin/cargo"), hold + """
        hold building
        exec %s "$@"
        """.formatted(Shell.quote(emulatorBin.resolve("cargo").toString())));
    // srt_scrape runs "$SRT_PYTHON" -c CODE scrape FILE URL...; engines and the benchmark run as -m MODULE.
    shim(dir.resolve("bin/python3"), hold + """
        if [ "${1:-}" = -c ] && [ "${3:-}" = scrape ]; then
          case ${4:-} in *metrics-before.txt) hold ready ;; esac
        fi
        previous=
        for arg in "$@"; do
          if [ "$previous" = -m ]; then
            case $arg in
              sglang.launch_server) hold starting ;;
              sglang.benchmark.serving | sglang.bench_serving) hold benchmarking ;;
            esac
            break
          fi
          previous=$arg
        done
        exec %s "$@"
        """.formatted(Shell.quote(emulatorBin.resolve("python3").toString())));
    return new HoldPoints(dir);
  }

  private static void shim(Path file, String text) throws IOException {
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** The directory to put first on the cluster's {@code path}. */
  Path bin() {
    return dir.resolve("bin");
  }

  /** Whether a step of a run waits (or waited) at {@code point}. */
  boolean reached(String point) {
    return Files.exists(dir.resolve("reached-" + point));
  }

  /** Lets every step waiting at {@code point} go on, and every later one pass. */
  void release(String point) {
    try {
      Files.writeString(dir.resolve("released-" + point), "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void releaseAll() {
    ALL.forEach(this::release);
  }
}
