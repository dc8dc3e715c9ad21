package dev.srt.operator.cli;

import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.host.HostException;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.PastRuns;
import dev.srt.operator.run.PastRuns.PastRun;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.run.Runs;
import dev.srt.operator.verdict.ComparisonReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Watching a comparison's runs that are already on the host, from their records: {@code wait}, and
 * {@code apply} when it finds runs in flight. Each run in flight is followed to its end, oldest
 * first, with {@code apply}'s live lines; then {@code apply}'s summary of each arm's newest runs and
 * its exit status. An interrupt detaches: nothing is ever cancelled from here.
 */
final class RunWatch {
  private RunWatch() {}

  /** The newest {@code spec.execution.repetitions} runs of each arm, replayed from the host's records. */
  static Map<String, List<PastRun>> read(RunHost host, RouterComparison rc, List<String> arms, Clock clock) throws HostException {
    return PastRuns.read(host, ArmRunner.NAMESPACE, rc.getMetadata().getName(), arms, Runs.repetitions(rc.getSpec()), clock.instant());
  }

  /**
   * Whether any run of the comparison's arms is still in flight on the host. A run whose job has
   * ended is only over once its results are read (the tracker says so then), so they are read.
   */
  static boolean anyInFlight(RunHost host, RouterComparison rc, Clock clock) throws HostException {
    return !inFlight(read(host, rc, rc.getSpec().arms.stream().map(a -> a.name).toList(), clock)).isEmpty();
  }

  /** The runs of {@code past} that have not ended, the oldest submission first. */
  static List<PastRun> inFlight(Map<String, List<PastRun>> past) {
    return past.values().stream().flatMap(List::stream).filter(PastRun::inFlight)
        .sorted(Comparator.comparing((PastRun p) -> p.replayed().submittedAt()).thenComparing(PastRun::repetition)).toList();
  }

  /**
   * Follows every run of {@code past} in flight, then prints the summary of {@code arms}.
   *
   * @param resume how to watch again, for the line an interrupt prints
   * @return 0 when every arm has all its repetitions succeeded, 130/143 after an interrupt, else 1
   */
  static int follow(Map<String, List<PastRun>> past, RouterComparison rc, List<String> arms, ArmRunner runner, ApplyOutput progress,
      Clock clock, String resume) {
    AtomicReference<String> signal = new AtomicReference<>();
    Signals signals = new Signals();
    signals.install(name -> {
      if (signal.compareAndSet(null, name)) {
        progress.println("detached (SIG" + name + "): the runs go on on the host; " + resume + " watches them again");
        runner.stop();
      }
    });
    Instant start = clock.instant();
    Map<String, ArmStatus> followed = new LinkedHashMap<>();
    int repetitions = Runs.repetitions(rc.getSpec());
    try {
      for (PastRun p : inFlight(past)) {
        ArmRunner.Run run = runner.attach(p, repetitions, progress);
        if (run == null || signal.get() != null) {
          break;
        }
        followed.put(p.ref().runId(), run.status);
      }
    } finally {
      signals.close();
    }
    Map<String, List<ArmStatus>> runs = new LinkedHashMap<>();
    past.forEach((arm, list) -> runs.put(arm, list.stream().map(p -> followed.getOrDefault(p.ref().runId(), p.status())).toList()));
    Map<String, List<ArmRun>> finished = new LinkedHashMap<>();
    Map<String, ArmStatus> latest = new LinkedHashMap<>();
    runs.forEach((arm, list) -> {
      finished.put(arm, list.stream().filter(s -> ArmRuns.counts(s.phase())).map(ArmRuns::of).toList());
      latest.put(arm, list.get(list.size() - 1));
    });
    ComparisonReport report = ArmRuns.report(rc.getMetadata().getName(), rc.getSpec(), arms, finished);
    progress.summary(arms, report, latest, repetitions, Duration.between(start, clock.instant()));
    if (signal.get() != null) {
      return "TERM".equals(signal.get()) ? 143 : 130;
    }
    boolean all = arms.stream().allMatch(a -> runs.containsKey(a) && runs.get(a).size() == repetitions
        && runs.get(a).stream().allMatch(s -> s.phase() == ArmPhase.Succeeded));
    return all ? 0 : 1;
  }
}
