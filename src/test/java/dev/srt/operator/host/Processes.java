package dev.srt.operator.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** This machine's processes as /proc shows them (the test hosts are this machine). */
final class Processes {
  private Processes() {}

  /**
   * True while the process exists and is not a zombie. A killed orphan stays a zombie until
   * PID 1 reaps it, which in a container can take a moment; it no longer runs anything.
   */
  static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String afterComm = stat.substring(stat.lastIndexOf(')') + 2);
      return afterComm.charAt(0) != 'Z';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The process group of a process, or -1 if it is gone. */
  static long group(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Running processes whose environment contains {@code SRT_RUN_ID=<runId>}. */
  static List<Long> withRunId(String runId) {
    String needle = "SRT_RUN_ID=" + runId;
    List<Long> found = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      procs.filter(p -> p.getFileName().toString().matches("\\d+")).forEach(p -> {
        try {
          String environ = new String(Files.readAllBytes(p.resolve("environ")), StandardCharsets.UTF_8);
          long pid = Long.parseLong(p.getFileName().toString());
          if (List.of(environ.split("\0")).contains(needle) && running(pid)) {
            found.add(pid);
          }
        } catch (IOException e) {
          // gone meanwhile, or not ours to read
        }
      });
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc", e);
    }
    return found;
  }
}
