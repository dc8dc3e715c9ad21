package dev.srt.operator.cli;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.Transport;
import dev.srt.operator.run.BackendRunHost;
import dev.srt.operator.run.PastRuns.PastRun;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.verdict.FactChecks;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "status", mixinStandardHelpOptions = true, description = {
    "Shows the runs of a RouterComparison on its GpuCluster, as the host's run records say.",
    "Each arm's newest runs with their phase, job and message, and how many are still in flight. Submits nothing,",
    "watches nothing (srt-operator wait does). Then what the facts check says of the finished runs (a run without readable",
    "facts, routers that differ within an arm, held-constant facts that differ), as report does.",
    "-o json|yaml prints {comparison, cluster, inFlight, arms: [{name, runs}], facts}."})
public final class StatusCommand implements Callable<Integer> {
  @Mixin ComparisonOptions input;

  @Mixin ArmOption only;

  @Mixin OutputFormat output;

  /**
   * What -o json|yaml prints; {@code facts}: each arm whose facts check failed, with why and
   * whether its verdicts are not comparable or stand (requireFacts: false) ({@link FactChecks#lines}).
   */
  public record Status(String comparison, String cluster, int inFlight, List<ArmRuns> arms, List<String> facts) {}

  /** One arm's runs, oldest first. */
  public record ArmRuns(String name, List<ArmStatus> runs) {}

  @Override
  public Integer call() {
    ApplyCommand.quietHostLogs();
    PrintStream out = System.out;
    PrintStream err = System.err;
    OutputFormat.Format format = output.orElse(null, OutputFormat.Format.JSON, OutputFormat.Format.YAML);
    try {
      Inputs in = input.load(null, err);
      List<String> arms = only.of(in, err);
      RouterComparison rc = in.comparison();
      GpuCluster cluster = in.requireCluster("status needs the GpuCluster the arms run on");
      Map<String, List<PastRun>> past;
      try (Transport transport = ApplyCommand.transport(cluster)) {
        RunHost host = BackendRunHost.of(cluster.getSpec(), transport, BackendRunHost.Calls.NONE);
        past = RunWatch.read(host, rc, arms, Clock.systemUTC());
      }
      int inFlight = RunWatch.inFlight(past).size();
      List<ArmRuns> byArm = new ArrayList<>();
      for (String a : arms) {
        byArm.add(new ArmRuns(a, past.getOrDefault(a, List.of()).stream().map(PastRun::status).toList()));
      }
      List<String> facts = facts(rc, arms, past);
      if (format != null) {
        out.print(OutputFormat.write(new Status(rc.getMetadata().getName(), cluster.getMetadata().getName(), inFlight, byArm, facts),
            format));
        return 0;
      }
      print(out, byArm);
      facts.forEach(f -> out.println(Echo.escape("facts: " + f)));
      out.println(Echo.escape(inFlight == 0 ? "no run in flight" : inFlight + " run(s) in flight: srt-operator wait -f ... watches them"));
      return 0;
    } catch (Inputs.Invalid e) {
      return 1;
    } catch (ApplyCommand.UsageError | HostException e) {
      err.println(Echo.escape("status: " + e.getMessage()));
      return 1;
    }
  }

  /** The facts check of the arms' finished runs, as report makes it: a run without facts shows here before any report is read. */
  private static List<String> facts(RouterComparison rc, List<String> arms, Map<String, List<PastRun>> past) {
    Map<String, List<ArmRun>> finished = new LinkedHashMap<>();
    past.forEach((a, list) -> finished.put(a, list.stream().map(PastRun::status)
        .filter(st -> dev.srt.operator.run.ArmRuns.counts(st.phase())).map(dev.srt.operator.run.ArmRuns::of).toList()));
    return FactChecks.lines(dev.srt.operator.run.ArmRuns.report(rc.getMetadata().getName(), rc.getSpec(), arms, finished).factChecks);
  }

  private static void print(PrintStream out, List<ArmRuns> arms) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("ARM", "REP", "RUN", "JOB", "PHASE", "STARTED", "FINISHED", "MESSAGE"));
    for (ArmRuns a : arms) {
      if (a.runs().isEmpty()) {
        rows.add(List.of(a.name(), "-", "-", "-", "no runs", "-", "-", ""));
      }
      for (ArmStatus s : a.runs()) {
        rows.add(List.of(a.name(), s.repetition == null ? "-" : String.valueOf(s.repetition), dash(s.runId), dash(s.jobId), dash(s.phase),
            dash(s.startedAt), dash(s.finishedAt), s.message == null ? "" : s.message));
      }
    }
    Map<Integer, Integer> widths = new LinkedHashMap<>();
    for (List<String> row : rows) {
      for (int i = 0; i < row.size() - 1; i++) {
        widths.merge(i, Echo.escape(row.get(i)).length(), Math::max);
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        String cell = Echo.escape(row.get(i));
        line.append(i == row.size() - 1 ? cell : String.format("%-" + widths.get(i) + "s  ", cell));
      }
      out.println(line.toString().stripTrailing());
    }
  }

  private static String dash(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }
}
