package dev.srt.operator.cli;

import dev.srt.operator.run.Runs;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.verdict.ComparisonReport;

import dev.srt.operator.emulator.HostPrograms;
import dev.srt.operator.emulator.RealPrograms;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Transport;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.BackendRunHost;
import dev.srt.operator.run.PastRuns;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.run.RunTracker;
import dev.srt.operator.render.DirectScript;
import java.io.IOException;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "apply", mixinStandardHelpOptions = true, description = {
    "Runs the arms of a RouterComparison on its GpuCluster and shows each arm live.",
    "The arms run one after another (they share the GPUs); each shows its phase, workers ready, router ready and",
    "elapsed time, then a summary table. Exits 0 only if every arm succeeded.",
    "Ctrl-C cancels the arm in flight (nothing of it is left running) and exits 130.",
    "--detach submits every run at once, each to start when the one before it ends, and returns: srt-operator status",
    "shows them, srt-operator wait watches them. A comparison with runs still in flight on the host is not submitted",
    "again: apply watches those runs instead, as wait does.",
    "--bash prints the direct-host script of one arm instead and submits nothing."})
public final class ApplyCommand implements java.util.concurrent.Callable<Integer> {
  @Mixin ComparisonOptions input;

  @Mixin ArmOption only;

  @Option(names = "--bash", description = "Print the arm's direct-host bash script (run.sh) to stdout and submit nothing.")
  boolean bash;

  @Option(names = "--follow", description = "Also print every event of events.jsonl as it arrives.")
  boolean follow;

  @Option(names = "--secret-env", paramLabel = "NAME",
      description = "A variable of spec.secretEnv whose value is this shell's environment variable NAME (repeatable; "
          + "every declared name needs one). The value reaches the run only through the run directory's secret.env (mode 0600).")
  List<String> secretEnv = new ArrayList<>();

  @Option(names = "--seed", paramLabel = "N", description = "Seed of execution.order: randomized (default: a random one, printed).")
  Long seed;

  @Option(names = "--detach", description = "Submit every run, chained in execution order on the host (Slurm --dependency=afterany; "
      + "a direct host starts each when the one before has ended), print the run ids and return.")
  boolean detach;

  /** slf4j-simple's level property; the host layer's INFO lines would only repeat what apply prints. */
  private static final String LOG_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";

  @Override
  public Integer call() {
    quietHostLogs();
    PrintStream out = System.out;
    PrintStream err = System.err;
    try {
      Inputs in = input.load(bash ? Mode.DIRECT : null, err);
      List<String> arms = only.of(in, err);
      return bash ? printBash(in, arms, out, err) : apply(in, arms, out, err);
    } catch (Inputs.Invalid e) {
      return 1;
    } catch (UsageError e) {
      err.println(Echo.escape("apply: " + e.getMessage())); // names hosts, users and files of the input
      return 1;
    }
  }

  /** The host layer's INFO lines (connected, reconnecting) would only repeat what the commands print. */
  static void quietHostLogs() {
    if (System.getProperty(LOG_LEVEL) == null) {
      System.setProperty(LOG_LEVEL, "warn");
    }
  }

  /** A problem with the command or the cluster found before anything was submitted. */
  static final class UsageError extends Exception {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
      super(message);
    }
  }

  private int printBash(Inputs in, List<String> arms, PrintStream out, PrintStream err) throws UsageError {
    if (arms.size() > 1) {
      throw new UsageError("--bash prints one arm's script; the comparison has " + arms.size() + " arms ("
          + String.join(", ", arms) + "): choose one with --arm NAME");
    }
    GpuCluster cluster = emulated(in.cluster(), err);
    out.print(DirectScript.render(Planner.plan(in.comparison(), cluster, arms.get(0), Mode.DIRECT)));
    out.flush();
    return 0;
  }

  /** For a cluster annotated as an emulated host: installs the shims and puts them first on its path. */
  static GpuCluster emulated(GpuCluster cluster, PrintStream note) throws UsageError {
    if (!EmulatedHost.isEmulated(cluster)) {
      return cluster;
    }
    try {
      EmulatedHost.install(cluster);
    } catch (IOException | RuntimeException e) {
      throw new UsageError("cannot install the emulated host's shims in " + EmulatedHost.binDir(cluster) + ": " + e.getMessage());
    }
    String standIns = cluster.getSpec().env.getOrDefault(HostPrograms.STAND_INS_VAR, System.getenv(HostPrograms.STAND_INS_VAR));
    note.println("emulated GPU host (" + EmulatedHost.ANNOTATION + "): " + HostPrograms.describe(RealPrograms.environment(), standIns)
        + "; emulator shims in " + EmulatedHost.binDir(cluster) + ", state in " + EmulatedHost.stateDir(cluster));
    return EmulatedHost.withShimsOnPath(cluster);
  }

  private int apply(Inputs in, List<String> only, PrintStream out, PrintStream err) throws UsageError {
    RouterComparison rc = in.comparison();
    in.requireCluster("apply needs the GpuCluster to run on");
    if (rc.getSpec().suspended()) {
      throw new UsageError("RouterComparison " + rc.getMetadata().getName() + " has spec.suspend: true; nothing was submitted");
    }
    SecretEnvFile secrets = SecretEnvValues.of(Planner.secretEnvNames(in.cluster().getSpec(), rc.getSpec()), secretEnv, System.getenv());
    GpuCluster cluster = emulated(in.cluster(), out);
    Mode mode = cluster.getSpec().mode();
    List<String> arms = only;
    List<Runs.Slot> schedule = schedule(rc, only, out);
    Clock clock = Clock.systemUTC();
    try (Transport transport = transport(cluster)) {
      RunHost host = BackendRunHost.of(cluster.getSpec(), transport, BackendRunHost.Calls.NONE);
      ArmRunner runner = new ArmRunner(host, rc, cluster, mode, ArmRunner.pollInterval(cluster), clock, secrets);
      ApplyOutput progress = new ApplyOutput(out, System.console() != null, follow, arms, clock);
      try {
        // the CLI is as idempotent as the operator: a comparison already on the host is watched, not submitted again
        if (RunWatch.anyInFlight(host, rc, clock)) {
          List<String> all = rc.getSpec().arms.stream().map(a -> a.name).toList();
          Map<String, List<PastRuns.PastRun>> past = RunWatch.read(host, rc, all, clock);
          out.println(Echo.escape("RouterComparison " + rc.getMetadata().getName() + " has " + RunWatch.inFlight(past).size()
              + " run(s) in flight on " + transport.describe() + ": watching them, nothing submitted (once they have ended, "
              + "apply submits the comparison again)"));
          return RunWatch.follow(past, rc, arms, runner, progress, clock, "srt-operator wait");
        }
      } catch (HostException e) {
        throw new UsageError(Echo.escape("cannot read the runs already on " + transport.describe() + " (nothing was submitted): "
            + e.getMessage()));
      }
      if (detach) {
        return detach(rc, schedule, runner, out, transport.describe());
      }
      out.println(Echo.escape("applying RouterComparison " + rc.getMetadata().getName() + " on GpuCluster "
          + cluster.getMetadata().getName() + " (" + mode.id() + " mode, " + transport.describe() + "): "
          + String.join(", ", arms)));
      AtomicReference<String> signal = new AtomicReference<>();
      CountDownLatch finished = new CountDownLatch(1);
      Thread hook = new Thread(() -> {
        // Without signal handlers: cancel from the shutdown sequence and wait for the cancel.
        runner.stop();
        try {
          finished.await(RunTracker.CANCEL_SETTLE.toSeconds() + 30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "srt-apply-cancel");
      Signals signals = new Signals();
      boolean handled = signals.install(name -> {
        if (signal.compareAndSet(null, name)) {
          progress.println("interrupted (SIG" + name + "): cancelling what was started; interrupt again to exit at once");
          runner.stop();
        } else {
          ArmRunner.Run run = runner.current();
          progress.println("interrupted again: exiting without waiting"
              + (run == null ? "" : "; run " + run.ref + " (job " + run.jobId + ") may still be running"));
          Runtime.getRuntime().halt(exitCode(name));
        }
      });
      if (!handled) {
        Runtime.getRuntime().addShutdownHook(hook);
      }
      Map<String, List<ArmRunner.Run>> runs = new LinkedHashMap<>();
      Instant start = clock.instant();
      int repetitions = Runs.repetitions(rc.getSpec());
      try {
        for (Runs.Slot slot : schedule) {
          ArmRunner.Run run = runner.run(slot.arm(), slot.repetition(), repetitions, Runs.newRunId(), progress);
          if (run == null) {
            break;
          }
          run.status.repetition = slot.repetition();
          runs.computeIfAbsent(slot.arm(), k -> new ArrayList<>()).add(run);
          if (run.hostError != null) {
            progress.println(slot.arm() + ": " + run.status.message);
            break;
          }
          if (runner.stopRequested()) {
            break;
          }
        }
      } finally {
        finished.countDown();
        signals.close();
        if (!handled) {
          try {
            Runtime.getRuntime().removeShutdownHook(hook);
          } catch (IllegalStateException e) {
            // already shutting down
          }
        }
      }
      // Interrupted or not, the runs that finished are reported (a cancelled one is not a repetition).
      Map<String, ArmStatus> latest = new LinkedHashMap<>();
      runs.forEach((arm, list) -> latest.put(arm, list.get(list.size() - 1).status));
      progress.summary(arms, report(rc, arms, runs), latest, repetitions, Duration.between(start, clock.instant()));
      if (signal.get() != null) {
        return exitCode(signal.get());
      }
      boolean all = arms.stream().allMatch(a -> runs.containsKey(a) && runs.get(a).size() == repetitions
          && runs.get(a).stream().allMatch(r -> r.phase() == ArmPhase.Succeeded));
      return all ? 0 : 1;
    }
  }

  /**
   * Submits every slot of {@code schedule}, each to start after the one before, and returns: 0 when
   * all were submitted; 1 when one was refused (those before it stay queued on the host, and say so).
   */
  private static int detach(RouterComparison rc, List<Runs.Slot> schedule, ArmRunner runner, PrintStream out, String where) {
    int repetitions = Runs.repetitions(rc.getSpec());
    RunFiles.After after = null;
    int submitted = 0;
    for (Runs.Slot slot : schedule) {
      ArmRunner.Run run = runner.submit(slot.arm(), slot.repetition(), repetitions, Runs.newRunId(), after);
      if (run.hostError != null) {
        out.println(Echo.escape(slot.arm() + ": run " + slot.repetition() + "/" + repetitions + " was not submitted: "
            + run.status.message));
        out.println(Echo.escape(submitted == 0 ? "nothing was submitted"
            : submitted + " run(s) before it are queued on the host: srt-operator status shows them"));
        return 1;
      }
      out.println(Echo.escape(String.format("%-12s run %d/%d  submitted run %s as job %s%s", slot.arm(), slot.repetition(), repetitions,
          run.ref.runId(), run.jobId, after == null ? "" : " (after job " + after.jobId() + ")")));
      after = new RunFiles.After(run.ref, run.jobId);
      submitted++;
    }
    out.println(Echo.escape("detached: " + submitted + " run(s) of RouterComparison " + rc.getMetadata().getName() + " queued on "
        + where + ", in order; srt-operator status (same -f and --cluster) shows them, srt-operator wait watches them to the end "
        + "(Ctrl-C there detaches again)"));
    return 0;
  }

  private static int exitCode(String signal) {
    return "TERM".equals(signal) ? 143 : 130;
  }

  /** The runs to make, in {@code execution.order}; a randomized order says its seed. */
  private List<Runs.Slot> schedule(RouterComparison rc, List<String> arms, PrintStream out) {
    long s = seed != null ? seed : new SecureRandom().nextLong();
    if (arms.size() > 1 && Runs.randomized(rc.getSpec())) {
      out.println("execution order: randomized with seed " + s + " (repeat with --seed " + s + ")");
    }
    return Runs.schedule(rc.getSpec(), arms, s);
  }

  /** The report of the runs that finished (succeeded or failed), by arm. */
  static ComparisonReport report(RouterComparison rc, List<String> arms, Map<String, List<ArmRunner.Run>> runs) {
    Map<String, List<ArmRun>> finished = new LinkedHashMap<>();
    runs.forEach((arm, list) -> finished.put(arm, list.stream().filter(r -> r.status != null && ArmRuns.counts(r.phase()))
        .map(r -> ArmRuns.of(r.status)).toList()));
    return ArmRuns.report(rc.getMetadata().getName(), rc.getSpec(), arms, finished);
  }

  /** The connection the CLI uses for {@code cluster} ({@link CliSsh}). */
  static Transport transport(GpuCluster cluster) throws UsageError {
    return CliSsh.transport(cluster);
  }
}
