package dev.srt.operator.realprograms;

import java.util.concurrent.TimeUnit;

/** Ends a process this test started, with all its children. */
final class Processes {
  private Processes() {}

  static void destroyTree(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    try {
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
