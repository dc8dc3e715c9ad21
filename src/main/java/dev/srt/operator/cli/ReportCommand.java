package dev.srt.operator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.ClusterObserver;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.LatestRuns;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.RunResults;
import dev.srt.operator.host.Transport;
import dev.srt.operator.base.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.run.ArmPhase;
import dev.srt.operator.run.ArmProgress;
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
import picocli.CommandLine.Option;

@Command(name = "report", mixinStandardHelpOptions = true, description = {
    "Shows the newest run of each arm: the same table apply ends with, or JSON. Submits nothing, so it also works while",
    "arms run or long after. With -f, read from the GpuCluster's run directories (events.jsonl, the job's state, and",
    "the result files of runs that succeeded); with --kube NAME, from the RouterComparison's status in Kubernetes",
    "(what the operator wrote).",
    "Exits 0 when every arm has a run, 1 when one has none."})
public final class ReportCommand implements Callable<Integer> {
  @Option(names = {"-f", "--filename"}, arity = "1..*", paramLabel = "FILE",
      description = "YAML with the RouterComparison (and optionally its GpuCluster).")
  List<Path> files;

  @Option(names = "--kube", paramLabel = "NAME", description = "Read the status of RouterComparison NAME from the API server instead.")
  String kube;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS", description = "With --kube: the namespace (default: the kubeconfig's).")
  String namespace;

  @Option(names = "--kubeconfig", paramLabel = "FILE", description = "With --kube: kubeconfig to use instead of the default one.")
  Path kubeconfig;

  @Option(names = "--cluster", paramLabel = "FILE", description = "GpuCluster the arms ran on (instead of the one clusterRef names).")
  Path clusterFile;

  @Option(names = "--arm", paramLabel = "NAME", description = "Only this arm.")
  String arm;

  @Option(names = "--json", description = "Print each arm's status (the operator's status.arms[] shape) as a JSON array.")
  boolean json;

  /** Polls needed to read an event log the observer hands out in slices. */
  private static final int MAX_POLLS = 64;

  @Override
  public Integer call() {
    PrintStream out = System.out;
    PrintStream err = System.err;
    if ((files == null) == (kube == null)) {
      err.println("report: give either -f FILE (read the host) or --kube NAME (read the status in Kubernetes)");
      return 2;
    }
    try {
      List<String> arms;
      Map<String, ArmRunner.Run> runs;
      if (kube != null) {
        RouterComparison rc = fromKubernetes();
        arms = arm == null ? rc.getSpec().arms.stream().map(a -> a.name).toList() : List.of(arm);
        runs = fromStatus(rc, arms);
      } else {
        Inputs in = Inputs.load(files, clusterFile, null, err);
        arms = in.arms(arm, err);
        RouterComparison rc = in.comparison();
        GpuCluster cluster = in.cluster();
        if (cluster == null) {
          err.println("report: give --cluster FILE, or add the GpuCluster " + rc.getSpec().clusterRef.name + " to the -f files");
          return 1;
        }
        runs = read(rc, cluster, arms);
      }
      if (json) {
        List<ArmStatus> statuses = arms.stream().filter(runs::containsKey).map(a -> runs.get(a).status).toList();
        out.println(Mappers.json().writerWithDefaultPrettyPrinter().writeValueAsString(statuses));
      } else {
        Clock clock = Clock.systemUTC();
        Instant first = runs.values().stream().map(r -> r.started).min(Instant::compareTo).orElse(clock.instant());
        Instant last = runs.values().stream().map(r -> r.ended == null ? clock.instant() : r.ended).max(Instant::compareTo).orElse(first);
        new ApplyOutput(out, false, false, arms, clock).summary(arms, runs, Duration.between(first, last));
      }
      return runs.keySet().containsAll(arms) ? 0 : 1;
    } catch (Inputs.Invalid e) {
      return 1;
    } catch (ApplyCommand.UsageError | HostException e) {
      err.println("report: " + e.getMessage());
      return 1;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    } catch (IOException | KubernetesClientException e) {
      err.println("report: " + e.getMessage());
      return 1;
    }
  }

  private RouterComparison fromKubernetes() throws IOException {
    try (KubernetesClient client = KubeClients.connect(kubeconfig)) {
      String ns = namespace != null ? namespace : client.getNamespace() != null ? client.getNamespace() : "default";
      RouterComparison rc = client.resources(RouterComparison.class).inNamespace(ns).withName(kube).get();
      if (rc == null) {
        throw new IOException("no RouterComparison " + ns + "/" + kube);
      }
      return rc;
    }
  }

  /** The arms the operator has a status for, as the table's runs (started and ended from the status times). */
  private static Map<String, ArmRunner.Run> fromStatus(RouterComparison rc, List<String> arms) {
    Map<String, ArmRunner.Run> runs = new LinkedHashMap<>();
    List<ArmStatus> statuses = rc.getStatus() == null || rc.getStatus().arms == null ? List.of() : rc.getStatus().arms;
    for (ArmStatus s : statuses) {
      if (!arms.contains(s.name) || s.runId == null) {
        continue;
      }
      ArmRunner.Run run = new ArmRunner.Run(new RunRef(rc.getMetadata().getNamespace(), rc.getMetadata().getName(), s.name, s.runId),
          null, s.startedAt == null ? Instant.now() : Instant.parse(s.startedAt));
      run.jobId = s.jobId;
      run.status = s;
      run.ended = s.finishedAt == null ? null : Instant.parse(s.finishedAt);
      runs.put(s.name, run);
    }
    return runs;
  }

  /**
   * The newest run of each arm, its status folded from its whole event log and the job's state,
   * and for a run that succeeded, its results read from its result files.
   */
  private static Map<String, ArmRunner.Run> read(RouterComparison rc, GpuCluster cluster, List<String> arms)
      throws ApplyCommand.UsageError, HostException {
    Mode mode = Mode.parse(cluster.getSpec().mode);
    try (Transport transport = ApplyCommand.transport(cluster)) {
      Backend backend = Backend.forMode(cluster.getSpec().mode, transport, cluster.getSpec().workDir);
      Map<String, LatestRuns.Found> found = LatestRuns.find(transport, cluster.getSpec().workDir, ArmRunner.NAMESPACE,
          rc.getMetadata().getName(), arms);
      Map<RunRef, Long> offsets = new LinkedHashMap<>();
      Map<String, ArmRunner.Run> runs = new LinkedHashMap<>();
      for (LatestRuns.Found f : found.values()) {
        String armName = f.run().arm();
        ArmRunner.Run run = new ArmRunner.Run(f.run(), Planner.plan(rc, cluster, armName, mode), Instant.now());
        run.jobId = f.jobId();
        run.status = ArmProgress.submitted(armName, f.run().runId(), f.jobId(), f.run().runDir(cluster.getSpec().workDir),
            null, null, run.plan, run.started);
        run.status.startedAt = null;
        runs.put(armName, run);
        offsets.put(f.run(), 0L);
      }
      ClusterObserver observer = new ClusterObserver(backend);
      for (int poll = 0; poll < MAX_POLLS && !offsets.isEmpty(); poll++) {
        List<ActiveRun> active = new ArrayList<>();
        offsets.forEach((ref, offset) -> active.add(new ActiveRun(ref, runs.get(ref.arm()).jobId, offset)));
        Map<RunRef, RunObservation> seen = observer.poll(active);
        Instant now = Instant.now();
        for (ActiveRun a : active) {
          RunObservation o = seen.get(a.run());
          ArmRunner.Run run = runs.get(a.run().arm());
          if (run.status.startedAt == null && !o.events().isEmpty() && o.events().get(0).ts() != null) {
            run.status.startedAt = o.events().get(0).ts().toString();
          }
          ArmProgress.apply(run.status, o.events(), o.moreEventsPending() ? null : o.job(), now);
          if (o.moreEventsPending()) {
            offsets.put(a.run(), o.nextOffset());
          } else {
            offsets.remove(a.run());
          }
        }
      }
      for (ArmRunner.Run run : runs.values()) {
        if (ArmPhase.of(run.status.phase) == ArmPhase.Succeeded) {
          ArmProgress.results(run.status, RunResults.read(backend, run.ref));
        }
        run.started = run.status.startedAt == null ? run.started : Instant.parse(run.status.startedAt);
        run.ended = run.status.finishedAt == null ? null : Instant.parse(run.status.finishedAt);
      }
      return runs;
    }
  }
}
