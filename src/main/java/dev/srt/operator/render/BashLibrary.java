package dev.srt.operator.render;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The shell texts every rendered script carries verbatim: the library and the sidecar supervisor. */
public final class BashLibrary {
  private static final String LIBRARY = resource("srt-lib.sh");
  private static final String SIDECAR_SUPERVISOR = resource("sidecar-supervisor.sh");

  private BashLibrary() {}

  /** Functions for events, process groups, probes, gates, stages and cleanup. */
  public static String text() {
    return LIBRARY;
  }

  /**
   * The library's definition of {@code SRT_PROBE_PY}, the Python probe helper (HTTP, TCP, chat,
   * scrape, free ports), for a host command that asks what a run would: {@code "$PYTHON" -c
   * "$SRT_PROBE_PY" KIND ARGS...}.
   */
  public static String probeDefinition() {
    String start = "read -r -d '' SRT_PROBE_PY <<'PY' || true\n";
    int from = LIBRARY.indexOf(start);
    int to = LIBRARY.indexOf("\nPY\n", from);
    if (from < 0 || to < 0) {
      throw new IllegalStateException("srt-lib.sh defines no SRT_PROBE_PY");
    }
    return LIBRARY.substring(from, to + "\nPY\n".length());
  }

  /**
   * The engine/sidecar supervisor, a standalone bash program run as {@code bash -c "$TEXT" name
   * NAME GRPC_PORT TIMEOUT ENGINE_LOG SIDECAR_LOG ENGINE_ARGC ENGINE_ARGV... SIDECAR_ARGV...}, on
   * whatever node the worker runs. It executes the two argvs as given, without parsing them.
   */
  public static String sidecarSupervisor() {
    return SIDECAR_SUPERVISOR;
  }

  private static String resource(String name) {
    try (InputStream in = BashLibrary.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
