package dev.srt.operator.cli;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.config.Echo;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.Runs;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.report.Distributions;
import dev.srt.operator.report.HtmlReport;
import dev.srt.operator.report.MarkdownReport;
import dev.srt.operator.report.ReportContext;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.Transport;
import dev.srt.operator.run.BackendRunHost;
import dev.srt.operator.run.LevelTables;
import dev.srt.operator.run.PastRuns;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.run.SpecDrift;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "report", mixinStandardHelpOptions = true, description = {
    "Shows the runs of each arm, their summaries and the verdicts against the baseline.",
    "By default the same table apply ends with; -o wide adds one row per run, -o json|yaml prints",
    "{comparison, arms: [{name, runs, summary}], verdicts}, -o markdown the tables for a pull request, and --html FILE",
    "writes one self-contained page with charts, the verdicts, what was held constant and the diff of the arms.",
    "Submits nothing, so it also works while arms run or long after. With -f, read the newest",
    "spec.execution.repetitions runs of each arm from the GpuCluster's run directories (events.jsonl, the job's state,",
    "and the result files of runs that succeeded); with --kube NAME, from the RouterComparison's status in Kubernetes",
    "(what the operator wrote). Exits 0 when every arm has a run, 1 when one has none."})
public final class ReportCommand implements Callable<Integer> {
  /** Said on every page of runs made on the emulated host. */
  static final String EMULATED_NOTE = "these runs were made on the emulated GPU host (" + EmulatedHost.ANNOTATION + "): programs that "
      + "model engines, routers and benchmarks, not GPUs; compare the arms, not the absolute numbers";

  @Option(names = {"-f", "--filename"}, arity = "1..*", paramLabel = "FILE",
      description = "YAML with the RouterComparison (and optionally its GpuCluster).")
  List<Path> files;

  @Option(names = "--kube", paramLabel = "NAME", description = "Read the status of RouterComparison NAME from the API server instead.")
  String kube;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS", description = "With --kube: the namespace (default: the kubeconfig's).")
  String namespace;

  @Option(names = "--kubeconfig", paramLabel = "FILE", description = "With --kube: kubeconfig to use instead of the default one.")
  Path kubeconfig;

  @Option(names = "--cluster", paramLabel = "FILE", description = ComparisonOptions.CLUSTER)
  Path clusterFile;

  @Mixin ArmOption only;

  @Mixin OutputFormat output;

  @Option(names = "--html", paramLabel = "FILE", description = "Also write the report as one self-contained HTML page (charts, verdicts, "
      + "what was held constant, the diff of the arms, every run) to FILE.")
  Path html;

  @Option(names = "--cdf-load", paramLabel = "LOAD", description = "With --html over a load ladder: draw the TTFT and ITL "
      + "distributions at this level (default: the highest load every arm sustains within the SLO).")
  Double cdfLoad;

  @Override
  public Integer call() {
    PrintStream out = System.out;
    PrintStream err = System.err;
    if ((files == null) == (kube == null)) {
      err.println("report: give either -f FILE (read the host) or --kube NAME (read the status in Kubernetes)");
      return 2;
    }
    OutputFormat.Format format = output.orElse(null, OutputFormat.Format.values());
    try {
      List<String> arms;
      RouterComparison rc;
      GpuCluster usedCluster;
      String source;
      Map<String, List<ArmStatus>> runs;
      Map<String, List<PastRuns.PastRun>> past = Map.of();
      List<String> notes = new ArrayList<>();
      if (kube != null) {
        Kube k = fromKubernetes();
        rc = k.comparison();
        usedCluster = k.cluster();
        source = "Kubernetes " + rc.getMetadata().getNamespace() + "/" + rc.getMetadata().getName() + " (the operator's status)";
        arms = only.arm == null ? rc.getSpec().arms.stream().map(a -> a.name).toList() : List.of(only.arm);
        runs = fromStatus(rc, arms);
      } else {
        Inputs in = Inputs.load(files, clusterFile, null, err);
        arms = only.of(in, err);
        rc = in.comparison();
        GpuCluster cluster = in.cluster();
        if (cluster == null) {
          err.println(Echo.escape("report: give --cluster FILE, or add the GpuCluster " + rc.getSpec().clusterRef.name + " to the -f files"));
          return 1;
        }
        past = read(rc, cluster, arms);
        runs = new LinkedHashMap<>();
        past.forEach((a, list) -> runs.put(a, list.stream().map(PastRuns.PastRun::status).toList()));
        // Runs were submitted to the cluster as apply ran it: on an emulated host, with its shims first on the path.
        GpuCluster submittedTo = EmulatedHost.isEmulated(cluster) ? EmulatedHost.withShimsOnPath(cluster) : cluster;
        SpecDrift drift = SpecDrift.of(rc, submittedTo, past);
        if (EmulatedHost.isEmulated(cluster)) {
          notes.add(EMULATED_NOTE);
        }
        notes.addAll(drift.notes());
        rc = drift.ranWith();
        usedCluster = drift.ranOn() == submittedTo ? cluster : drift.ranOn();
        source = "GpuCluster " + cluster.getMetadata().getName() + " (" + cluster.getSpec().mode + " mode, "
            + (cluster.getSpec().isLocal() ? "local" : "ssh " + Echo.escape(cluster.getSpec().ssh.host)) + "): its run directories";
      }
      Map<String, List<ArmRun>> finished = new LinkedHashMap<>();
      Map<String, ArmStatus> latest = new LinkedHashMap<>();
      runs.forEach((a, list) -> {
        finished.put(a, list.stream().filter(s -> ArmRuns.counts(s.phase())).map(ArmRuns::of).toList());
        latest.put(a, list.get(list.size() - 1));
      });
      ComparisonReport report = ArmRuns.report(rc.getMetadata().getName(), rc.getSpec(), arms, finished);
      if (html != null) {
        Distributions distributions = kube != null ? null : ReportDistributions.of(report, rc.getSpec(), past, cdfLoad);
        if (kube != null) {
          notes.add("no latency distributions: the status keeps no per-request data (report -f FILE reads them from the run directories)");
        }
        // Never through a link or into a FIFO: a regular file or nothing is replaced, atomically.
        OutputFiles.write(html, HtmlReport.render(new ReportContext(report, rc, usedCluster, source, Instant.now(), notes,
            distributions, generator())));
        err.println(Echo.escape("report: wrote " + html));
      }
      if (format == OutputFormat.Format.JSON || format == OutputFormat.Format.YAML) {
        out.print(OutputFormat.write(report, format));
      } else if (format == OutputFormat.Format.MARKDOWN) {
        out.print(MarkdownReport.render(new ReportContext(report, rc, usedCluster, source, Instant.now(), notes, null, generator())));
      } else {
        notes.forEach(n -> out.println("note: " + n));
        Instant first = runs.values().stream().flatMap(List::stream).map(s -> instant(s.startedAt)).filter(t -> t != null)
            .min(Instant::compareTo).orElse(Instant.now());
        Instant last = runs.values().stream().flatMap(List::stream).map(s -> s.finishedAt == null ? Instant.now() : instant(s.finishedAt))
            .filter(t -> t != null).max(Instant::compareTo).orElse(first);
        new ApplyOutput(out, false, false, arms, Clock.systemUTC()).summary(arms, report, latest, Runs.repetitions(rc.getSpec()),
            Duration.between(first, last));
        if (format == OutputFormat.Format.WIDE) {
          ReportRuns.print(report, arms, out);
        }
      }
      return runs.keySet().containsAll(arms) ? 0 : 1;
    } catch (Inputs.Invalid e) {
      return 1;
    } catch (ApplyCommand.UsageError | HostException e) {
      err.println(Echo.escape("report: " + e.getMessage()));
      return 1;
    } catch (KubernetesClientException e) {
      err.println(Echo.escape("report: " + KubeErrors.describe(e, "RouterComparison " + kube)));
      return 1;
    } catch (IOException e) {
      err.println(Echo.escape("report: " + e.getMessage()));
      return 1;
    }
  }

  /** The comparison and, if it can be read, the GpuCluster it names (for what the report says was held constant). */
  private record Kube(RouterComparison comparison, GpuCluster cluster) {}

  private Kube fromKubernetes() throws IOException {
    try (KubernetesClient client = KubeClients.connectOnce(kubeconfig)) {
      String ns = namespace != null ? namespace : client.getNamespace() != null ? client.getNamespace() : "default";
      RouterComparison rc = client.resources(RouterComparison.class).inNamespace(ns).withName(kube).get();
      if (rc == null) {
        throw new IOException("no RouterComparison " + ns + "/" + kube);
      }
      GpuCluster cluster = null;
      if (rc.getSpec() != null && rc.getSpec().clusterRef != null && rc.getSpec().clusterRef.name != null) {
        try {
          cluster = client.resources(GpuCluster.class).inNamespace(ns).withName(rc.getSpec().clusterRef.name).get();
        } catch (KubernetesClientException e) {
          // the report is still whole without it, save the cluster's facts
        }
      }
      return new Kube(rc, cluster);
    }
  }

  /**
   * The runs the operator recorded for each arm: its finished runs (results, no endpoints) and, when
   * its current run is not among them, that run.
   */
  private static Map<String, List<ArmStatus>> fromStatus(RouterComparison rc, List<String> arms) {
    Map<String, List<ArmStatus>> runs = new LinkedHashMap<>();
    List<ArmStatus> statuses = rc.getStatus() == null || rc.getStatus().arms == null ? List.of() : rc.getStatus().arms;
    for (ArmStatus s : statuses) {
      if (!arms.contains(s.name) || s.runId == null && (s.runs == null || s.runs.isEmpty())) {
        continue;
      }
      List<ArmStatus> list = new ArrayList<>();
      for (ArmRun r : s.runs == null ? List.<ArmRun>of() : s.runs) {
        LevelTables.unpack(r);
        list.add(asStatus(s.name, r));
      }
      if (s.runId != null && list.stream().noneMatch(x -> s.runId.equals(x.runId))) {
        list.add(s);
      }
      if (!list.isEmpty()) {
        runs.put(s.name, list);
      }
    }
    return runs;
  }

  private static ArmStatus asStatus(String arm, ArmRun r) {
    ArmStatus s = new ArmStatus();
    s.name = arm;
    s.runId = r.runId;
    s.repetition = r.repetition;
    s.phase = r.phase;
    s.jobId = r.jobId;
    s.runDir = r.runDir;
    s.startedAt = r.startedAt;
    s.finishedAt = r.finishedAt;
    s.message = r.message;
    s.results = r.results;
    s.levels = r.levels;
    s.facts = r.facts;
    return s;
  }

  /** {@code srt-operator 0.1.0 (commit 4d86f6f)}: which build made the report. */
  private static String generator() {
    Map<String, String> info = VersionCommand.info();
    return "srt-operator " + info.get("version") + " (commit " + info.get("gitCommit") + ")";
  }

  private static Instant instant(String at) {
    return at == null ? null : Instant.parse(at);
  }

  /**
   * The newest {@code spec.execution.repetitions} runs of each arm, oldest first, each replayed
   * against its own record ({@link PastRuns}), with a run that succeeded read from its result files.
   */
  private static Map<String, List<PastRuns.PastRun>> read(RouterComparison rc, GpuCluster cluster, List<String> arms)
      throws ApplyCommand.UsageError, HostException {
    try (Transport transport = ApplyCommand.transport(cluster)) {
      RunHost host = BackendRunHost.of(cluster.getSpec(), transport, BackendRunHost.Calls.NONE);
      return PastRuns.read(host, ArmRunner.NAMESPACE, rc.getMetadata().getName(), arms, Runs.repetitions(rc.getSpec()), Instant.now());
    }
  }
}
