package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.base.Shell;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.ExecResult;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.Transport;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Which run {@code logs} reads (the newest, or {@code --run ID}), and whether it has the log asked for. */
final class LogRuns {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private LogRuns() {}

  /** The run, or null after saying on {@code err} why there is none. */
  static RunRef pick(Transport transport, GpuCluster cluster, String comparison, String arm, String runId, PrintStream err)
      throws HostException {
    String workDir = cluster.getSpec().workDir;
    if (runId == null) {
      Map<String, LatestRuns.Found> found = LatestRuns.find(transport, workDir, ArmRunner.NAMESPACE, comparison, List.of(arm));
      if (!found.containsKey(arm)) {
        err.println("logs: arm " + arm + " has no run on GpuCluster " + cluster.getMetadata().getName());
        return null;
      }
      return found.get(arm).run();
    }
    RunRef ref;
    try {
      ref = new RunRef(ArmRunner.NAMESPACE, comparison, arm, runId);
    } catch (IllegalArgumentException e) {
      err.println("logs: --run " + Echo.value(runId) + " is not a run id (such as r053dc321)");
      return null;
    }
    if (!transport.exec("test -d " + Shell.quote(ref.runDir(workDir)), TIMEOUT).succeeded()) {
      err.println("logs: arm " + arm + " has no run " + Echo.value(runId) + " on GpuCluster " + cluster.getMetadata().getName()
          + " (" + ref.runDir(workDir) + ")");
      return null;
    }
    return ref;
  }

  /** Whether the run has the log of {@code process}; if not, says which logs it has. */
  static boolean hasLog(Transport transport, String runDir, String process, PrintStream err) throws HostException {
    String logs = Shell.quote(runDir + "/logs");
    ExecResult r = transport.exec("test -f " + Shell.quote(runDir + "/logs/" + process + ".log") + " && echo yes || { cd " + logs
        + " 2>/dev/null && ls -1; }", TIMEOUT);
    if (r.stdout().strip().equals("yes")) {
      return true;
    }
    List<String> names = r.stdout().lines().filter(l -> l.endsWith(".log")).map(l -> l.substring(0, l.length() - 4)).toList();
    err.println("logs: the run has no log of " + Echo.value(process) + "; its logs: "
        + (names.isEmpty() ? "none yet" : String.join(", ", names.stream().map(Echo::value).toList())));
    return false;
  }
}
