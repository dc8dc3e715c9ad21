package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Transport;
import dev.srt.operator.run.BackendRunHost;
import dev.srt.operator.run.PastRuns.PastRun;
import dev.srt.operator.run.RunHost;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "wait", mixinStandardHelpOptions = true, description = {
    "Watches the runs of a RouterComparison that are on its GpuCluster until they end, as apply shows them.",
    "For runs that outlive a terminal: those of apply --detach, or of an apply that is gone. The runs are read from",
    "the run records on the host; nothing is submitted. The live lines, the summary and the exit status are",
    "apply's (0 only if every arm's newest runs all succeeded). Ctrl-C detaches: it never cancels a run."})
public final class WaitCommand implements Callable<Integer> {
  @Mixin ComparisonOptions input;

  @Mixin ArmOption only;

  @Option(names = "--follow", description = "Also print every event of events.jsonl as it arrives.")
  boolean follow;

  @Override
  public Integer call() {
    ApplyCommand.quietHostLogs();
    PrintStream out = System.out;
    PrintStream err = System.err;
    try {
      Inputs in = input.load(null, err);
      List<String> arms = only.of(in, err);
      RouterComparison rc = in.comparison();
      GpuCluster cluster = in.requireCluster("wait needs the GpuCluster the arms run on");
      Clock clock = Clock.systemUTC();
      try (Transport transport = ApplyCommand.transport(cluster)) {
        RunHost host = BackendRunHost.of(cluster.getSpec(), transport, BackendRunHost.Calls.NONE);
        Map<String, List<PastRun>> past = RunWatch.read(host, rc, arms, clock);
        if (past.isEmpty()) {
          err.println(Echo.escape("wait: RouterComparison " + rc.getMetadata().getName() + " has no runs on GpuCluster "
              + cluster.getMetadata().getName() + " (" + transport.describe() + ")"));
          return 1;
        }
        ArmRunner runner = new ArmRunner(host, rc, cluster, cluster.getSpec().mode(), ArmRunner.pollInterval(cluster), clock,
            SecretEnvFile.NONE);
        ApplyOutput progress = new ApplyOutput(out, System.console() != null, follow, arms, clock);
        out.println(Echo.escape("watching RouterComparison " + rc.getMetadata().getName() + " on GpuCluster "
            + cluster.getMetadata().getName() + " (" + transport.describe() + "): " + RunWatch.inFlight(past).size()
            + " run(s) in flight"));
        return RunWatch.follow(past, rc, arms, runner, progress, clock, "srt-operator wait");
      }
    } catch (Inputs.Invalid e) {
      return 1;
    } catch (ApplyCommand.UsageError | HostException e) {
      err.println(Echo.escape("wait: " + e.getMessage()));
      return 1;
    }
  }
}
