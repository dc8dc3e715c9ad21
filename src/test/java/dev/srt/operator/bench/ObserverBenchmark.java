package dev.srt.operator.bench;

import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.ClusterObserver;
import dev.srt.operator.host.DirectBackend;
import dev.srt.operator.host.LocalTransport;
import dev.srt.operator.host.RunRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One batched poll of many runs on a (local) host: the remote-execution count stays one whatever
 * the number of runs; this measures how the poll's time grows with runs and event volume.
 * Target (bench/README.md): 50 runs with 100 events each read in under 2 s.
 */
public final class ObserverBenchmark {
  private ObserverBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path work = Files.createTempDirectory("srt-observer-bench");
    try (LocalTransport transport = new LocalTransport()) {
      Backend backend = new DirectBackend(transport, work.toString());
      for (int n : new int[] {1, 10, 50}) {
        List<ActiveRun> runs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          RunRef run = new RunRef("bench", "cmp", "arm" + i, "r" + String.format("%08x", i));
          Path dir = Path.of(backend.runDirectory(run).path());
          Files.createDirectories(dir);
          StringBuilder events = new StringBuilder();
          for (int e = 0; e < 100; e++) {
            events.append("{\"ts\":\"2026-11-30T06:00:00Z\",\"event\":\"phase\",\"phase\":\"starting\",\"i\":").append(e).append("}\n");
          }
          Files.writeString(dir.resolve("events.jsonl"), events);
          runs.add(new ActiveRun(run, null, 0));
        }
        ClusterObserver observer = new ClusterObserver(backend);
        long start = System.nanoTime();
        var seen = observer.poll(runs);
        double ms = (System.nanoTime() - start) / 1e6;
        long events = seen.values().stream().mapToLong(o -> o.events().size()).sum();
        System.out.printf("poll: %d runs, %d events, one remote execution, %.0f ms%n", n, events, ms);
        if (n == 50 && ms > 2000) {
          System.out.println("ABOVE TARGET (2 s)");
          System.exit(1);
        }
      }
    }
  }
}
