package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.ExecResult;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunLogs;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.Transport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "logs", mixinStandardHelpOptions = true, description = {
    "Prints the end of a log of an arm's run, read from the GpuCluster's run directory.",
    "The log is the script's own (logs/script.log) or one process's (--process worker-0, router, sidecar-1, benchmark,",
    "dynamo-build, ...); without --process, lists the run's logs. The run is the arm's newest, or --run ID.",
    "--follow keeps printing what the log (the script's own without --process) gains until the run has ended (or Ctrl-C)."})
public final class LogsCommand implements Callable<Integer> {
  // -f is --follow here, as in kubectl logs and tail; the input file is --filename only.
  @Option(names = "--filename", required = true, arity = "1..*", paramLabel = "FILE",
      description = "YAML with the RouterComparison (and optionally its GpuCluster).")
  List<Path> files;

  @Option(names = {"-f", "--follow"}, description = "Keep printing what the log gains until the run has ended (or Ctrl-C).")
  boolean follow;

  @Option(names = "--run", paramLabel = "ID", description = "This run of the arm (its run id, e.g. r053dc321) instead of the newest.")
  String run;

  @Option(names = "--cluster", paramLabel = "FILE", description = ComparisonOptions.CLUSTER)
  Path clusterFile;

  @Option(names = "--arm", required = true, paramLabel = "NAME", description = "The arm.")
  String arm;

  @Option(names = "--process", paramLabel = "NAME", description = "The process (or build stage) whose log to print; `script` for the script's own.")
  String process;

  @Option(names = "--tail", paramLabel = "N", defaultValue = "100", description = "How many last lines (default: ${DEFAULT-VALUE}).")
  int tail;

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Override
  public Integer call() {
    PrintStream out = System.out;
    PrintStream err = System.err;
    if (process != null && !RunLogs.NAME.matcher(process).matches()) {
      err.println("logs: --process takes a process name such as worker-0, router or benchmark");
      return 2;
    }
    try {
      Inputs in = Inputs.load(files, clusterFile, null, err);
      in.arms(arm, err);
      RouterComparison rc = in.comparison();
      GpuCluster cluster = in.cluster();
      if (cluster == null) {
        err.println(Echo.escape("logs: give --cluster FILE, or add the GpuCluster " + rc.getSpec().clusterRef.name + " to the -f files"));
        return 1;
      }
      try (Transport transport = ApplyCommand.transport(cluster)) {
        RunRef ref = LogRuns.pick(transport, cluster, rc.getMetadata().getName(), arm, run, err);
        if (ref == null) {
          return 1;
        }
        String runDir = ref.runDir(cluster.getSpec().workDir);
        String log = follow && process == null ? "script" : process;
        if (log != null && !LogRuns.hasLog(transport, runDir, log, err)) {
          return 1;
        }
        if (follow) {
          err.println(Echo.escape("run " + ref.runId() + " of arm " + arm + ": " + runDir));
          new LogFollower(transport, runDir, log, LogFollower.POLL).follow(Math.max(1, tail), out);
          return 0;
        }
        ExecResult r = process == null ? RunLogs.list(transport, runDir, TIMEOUT) : RunLogs.tail(transport, runDir, process, tail, TIMEOUT);
        if (!r.succeeded()) {
          err.println(Echo.escape("logs: " + (r.stderr().isBlank() ? "exit " + r.exitCode() : r.stderr().strip())));
          return 1;
        }
        err.println(Echo.escape("run " + ref.runId() + " of arm " + arm + ": " + runDir));
        // A log is what its program wrote, printed as it is; the names in logs/ are the run's: escaped.
        out.print(process == null ? r.stdout().lines().map(l -> Echo.escape(l) + "\n").collect(java.util.stream.Collectors.joining()) : r.stdout());
        out.flush();
        return 0;
      }
    } catch (Inputs.Invalid e) {
      return 1;
    } catch (ApplyCommand.UsageError | HostException e) {
      err.println(Echo.escape("logs: " + e.getMessage()));
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 130;
    }
  }
}
