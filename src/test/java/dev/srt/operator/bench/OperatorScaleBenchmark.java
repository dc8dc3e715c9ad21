package dev.srt.operator.bench;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.reconcile.MockApiServer;
import dev.srt.operator.testinfra.TestHosts;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The operator at scale: {@code srt-operator operator} as a process, against the Fabric8 mock API
 * server, with one GpuCluster on the local Slurm over SSH (the benchmark's own sshd, whose log
 * counts executions and connections) and 100, then 300 one-arm comparisons in flight. Every job
 * is submitted held ({@code sbatchDirectives: {hold: ""}}), so none needs GPUs. For each size:
 * time until every comparison's job is submitted, SSH executions per poll and a poll's duration
 * (from /metrics), the lag from an {@code endpoint-ready} event appended to a run's events.jsonl
 * to the endpoint in {@code .status} (pollInterval 500 ms), the operator's RSS, the time to
 * delete every comparison (cancels included), every job cancelled, no run with two jobs.
 * Targets: bench/README.md. Prints {@code scale <n> <figure>: <value>} lines for bench/run.
 */
public final class OperatorScaleBenchmark {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final int LAG_SAMPLES = 20;

  private final KubernetesClient client;
  private final String namespace;
  private final CountingSshd sshd;
  private final OperatorUnderTest operator;
  private final HeldJobs slurm;
  private final Map<String, RouterComparison> seen = new ConcurrentHashMap<>();
  /** Comparisons whose endpoint-ready event was written, by name: when. */
  private final Map<String, Long> lagProbes = new ConcurrentHashMap<>();
  private final Map<String, Long> lags = new ConcurrentHashMap<>();

  private OperatorScaleBenchmark(KubernetesClient client, String namespace, CountingSshd sshd, OperatorUnderTest operator) {
    this.client = client;
    this.namespace = namespace;
    this.sshd = sshd;
    this.operator = operator;
    this.slurm = new HeldJobs(namespace);
  }

  public static void main(String[] args) throws Exception {
    TestHosts.requireSlurm();
    List<Integer> sizes = args.length == 0 ? List.of(100, 300) : java.util.Arrays.stream(args).map(Integer::valueOf).toList();
    Path dir = Files.createTempDirectory("srt-scale-bench");
    String namespace = "scale-" + Long.toString(System.currentTimeMillis() / 1000, 36);
    HeldJobs jobs = new HeldJobs(namespace);
    boolean ok = false;
    hostFloor();
    try (CountingSshd sshd = new CountingSshd(dir); MockApiServer api = new MockApiServer()) {
      setUpCluster(api.client, namespace, sshd, dir.resolve("work"));
      try (OperatorUnderTest operator = new OperatorUnderTest(dir, api.kubeconfig(namespace), namespace)) {
        OperatorScaleBenchmark bench = new OperatorScaleBenchmark(api.client, namespace, sshd, operator);
        try {
          bench.run(sizes);
          ok = true;
        } finally {
          if (!ok) {
            System.out.println("operator log (" + operator.log + "), last lines:");
            operator.logTail(40).forEach(System.out::println);
          }
        }
      }
    } finally {
      int left = jobs.cancelLeftovers();
      if (left > 0) {
        System.out.println("cancelled " + left + " job(s) the benchmark left");
      }
    }
    System.exit(ok ? 0 : 1);
  }

  /**
   * What one SSH execution costs on this host before any work: the median of 5 empty commands on
   * an open connection (to the shared test sshd, so the counting one sees the operator alone). It
   * bounds a poll's duration, and so the status lag, from below.
   */
  private static void hostFloor() throws Exception {
    try (dev.srt.operator.host.SshTransport ssh = new dev.srt.operator.host.SshTransport(TestHosts.ssh().sshConfig())) {
      ssh.exec("true", Duration.ofSeconds(30));
      List<Long> times = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        long start = System.nanoTime();
        ssh.exec("true", Duration.ofSeconds(30)).orThrow("an empty command");
        times.add(System.nanoTime() - start);
      }
      System.out.printf("scale: an empty ssh execution: %.3f s%n", seconds(times.stream().sorted().toList().get(2)));
    }
  }

  private static void setUpCluster(KubernetesClient client, String namespace, CountingSshd sshd, Path workDir) throws IOException {
    TestHosts.SshTarget login = TestHosts.ssh();
    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("login").endMetadata()
        .addToStringData("id_ed25519", Files.readString(login.keyFile()))
        .addToStringData("known_hosts", Files.readString(sshd.knownHosts)).build()).create();
    client.resource(client.getKubernetesSerialization().unmarshal("""
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: slurm, namespace: %s}
        spec:
          mode: slurm
          transport: ssh
          ssh:
            host: 127.0.0.1
            port: %d
            user: %s
            privateKeySecretRef: {name: login, key: id_ed25519}
            knownHostsSecretRef: {name: login, key: known_hosts}
          workDir: %s
          gpusPerNode: 8
          slurm:
            partition: %s
            timeLimit: "00:10:00"
            sbatchDirectives: {hold: ""}
          container: {runtime: none}
          pollInterval: 500ms
        """.formatted(namespace, sshd.port, login.user(), workDir, TestHosts.slurmPartition()), GpuCluster.class)).create();
  }

  private RouterComparison comparison(String name) {
    return client.getKubernetesSerialization().unmarshal("""
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: %s, namespace: %s}
        spec:
          clusterRef: {name: slurm}
          model: {path: /models/bench, servedModelName: bench}
          resources: {aggNodes: 1, aggWorkers: 1, gpusPerWorker: 1}
          backend: {type: sglang}
          workload: {tool: bench-serving, args: {num-prompts: 8}}
          arms:
          - name: rr
            frontend: {type: sgl-router, source: /src/sgl-router, args: {policy: round_robin}}
        """.formatted(name, namespace), RouterComparison.class);
  }

  private void run(List<Integer> sizes) throws Exception {
    SharedIndexInformer<RouterComparison> informer = client.resources(RouterComparison.class).inNamespace(namespace)
        .inform(new ResourceEventHandler<>() {
          @Override
          public void onAdd(RouterComparison rc) {
            saw(rc);
          }

          @Override
          public void onUpdate(RouterComparison old, RouterComparison rc) {
            saw(rc);
          }

          @Override
          public void onDelete(RouterComparison rc, boolean unknownFinalState) {
            seen.remove(rc.getMetadata().getName());
          }
        }, 0);
    try {
      for (int n : sizes) {
        round(n);
      }
      System.out.printf("scale: ssh connections: %d%n", sshd.counts().connections());
    } finally {
      informer.close();
    }
  }

  private void saw(RouterComparison rc) {
    String name = rc.getMetadata().getName();
    seen.put(name, rc);
    Long written = lagProbes.get(name);
    if (written != null && arm(rc).map(a -> a.endpoints != null && a.endpoints.stream().anyMatch(e -> e.ready)).orElse(false)) {
      lags.putIfAbsent(name, System.nanoTime() - written);
    }
  }

  private static Optional<ArmStatus> arm(RouterComparison rc) {
    return rc.getStatus() == null || rc.getStatus().arms == null ? Optional.empty() : rc.getStatus().arms.stream().findFirst();
  }

  private boolean submitted(String name) {
    RouterComparison rc = seen.get(name);
    return rc != null && arm(rc).map(a -> a.jobId != null).orElse(false);
  }

  private void round(int n) throws Exception {
    String prefix = "r" + n + "-";
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add(prefix + String.format("%04d", i));
    }
    long start = System.nanoTime();
    for (String name : names) {
      client.resource(comparison(name)).create();
    }
    await("every comparison of " + n + " submitted", () -> names.stream().allMatch(this::submitted));
    System.out.printf("scale %d submit-all: %.1f s%n", n, seconds(System.nanoTime() - start));

    pollFigures(n);
    statusLag(n, names);
    System.out.printf("scale %d rss peak: %d MiB%n", n, operator.memoryMiB("VmHWM"));
    System.out.printf("scale %d rss now: %d MiB%n", n, operator.memoryMiB("VmRSS"));

    int duplicates = 0;
    Map<String, Integer> perRun = slurm.jobsPerRun();
    for (String name : names) {
      ArmStatus a = arm(seen.get(name)).orElseThrow();
      int jobs = perRun.getOrDefault("srt-operator:" + namespace + "/" + name + "/" + a.name + "/" + a.runId, 0);
      duplicates += Math.max(0, jobs - 1);
    }
    System.out.printf("scale %d runs with one job: %d of %d%n", n, names.stream().filter(name -> {
      ArmStatus a = arm(seen.get(name)).orElseThrow();
      return perRun.getOrDefault("srt-operator:" + namespace + "/" + name + "/" + a.name + "/" + a.runId, 0) == 1;
    }).count(), n);
    System.out.printf("scale %d duplicate jobs: %d%n", n, duplicates);

    List<String> jobIds = names.stream().map(name -> arm(seen.get(name)).orElseThrow().jobId).toList();
    start = System.nanoTime();
    for (String name : names) {
      client.resources(RouterComparison.class).inNamespace(namespace).withName(name).delete();
    }
    await("every comparison of " + n + " deleted", () -> names.stream().noneMatch(seen::containsKey));
    System.out.printf("scale %d delete-all: %.1f s%n", n, seconds(System.nanoTime() - start));
    Map<String, String> states = new java.util.HashMap<>();
    slurm.jobs().forEach(j -> states.put(j.id(), j.state()));
    long cancelled = jobIds.stream().filter(id -> "CANCELLED".equals(states.get(id))).count();
    System.out.printf("scale %d jobs cancelled: %d of %d%n", n, cancelled, n);
  }

  /**
   * SSH executions per poll and a poll's mean duration, over a window that starts and ends with no
   * execution in flight: the sshd's log against the operator's poll timer. Nothing else runs then
   * (every job is submitted, the cluster probe is hourly), which the other operations' counts check.
   */
  private void pollFigures(int n) throws Exception {
    Thread.sleep(2000); // the first polls of the last runs, and their status writes, are over
    Window a = window();
    Thread.sleep(15_000);
    Window b = window();
    double polls = b.polls - a.polls;
    double others = b.others - a.others;
    // Ended executions: the poll timer counts a poll once its execution has ended.
    int execs = b.ssh.closed() - a.ssh.closed();
    System.out.printf("scale %d polls in window: %.0f (other host operations: %.0f, ssh executions: %d)%n", n, polls, others, execs);
    System.out.printf("scale %d ssh executions per poll: %.2f%n", n, polls == 0 ? Double.NaN : (execs - others) / polls);
    System.out.printf("scale %d poll mean: %.3f s%n", n, polls == 0 ? Double.NaN : (b.pollSeconds - a.pollSeconds) / polls);
    System.out.printf("scale %d poll max: %.3f s%n", n, operator.metric("srt_host_exec_seconds_max", l -> l.contains("operation=\"poll\"")));
  }

  private record Window(CountingSshd.Counts ssh, double polls, double pollSeconds, double others) {}

  /**
   * A sample taken while no execution is in flight, when one can be had within 5 s (else the
   * closest); the poll timer counts an execution a moment after the sshd logs its end, so a
   * boundary may still be off by one poll, which a window of many polls makes small.
   */
  private Window window() throws Exception {
    Window best = null;
    Instant deadline = Instant.now().plus(Duration.ofSeconds(5));
    do {
      CountingSshd.Counts before = sshd.counts();
      double polls = operator.metric("srt_host_exec_seconds_count", l -> l.contains("operation=\"poll\""));
      double pollSeconds = operator.metric("srt_host_exec_seconds_sum", l -> l.contains("operation=\"poll\""));
      double others = operator.metric("srt_host_exec_seconds_count", l -> !l.contains("operation=\"poll\""));
      if (sshd.counts().equals(before) && (best == null || before.inFlight() < best.ssh.inFlight())) {
        best = new Window(before, polls, pollSeconds, others);
      }
      if (best != null && best.ssh.inFlight() == 0) {
        return best;
      }
      Thread.sleep(5);
    } while (Instant.now().isBefore(deadline));
    if (best == null) {
      throw new IllegalStateException("the sshd's log never held still for a sample");
    }
    System.out.printf("(a window's end with %d execution(s) in flight)%n", best.ssh.inFlight());
    return best;
  }

  /**
   * Appends a worker's {@code endpoint-ready} to {@value #LAG_SAMPLES} runs' events.jsonl (the
   * host is this machine), spread over several poll intervals, and times each until the
   * comparison's status shows the endpoint ready.
   */
  private void statusLag(int n, List<String> names) throws Exception {
    lags.clear();
    lagProbes.clear();
    java.util.Random random = new java.util.Random(n);
    int samples = Math.min(LAG_SAMPLES, names.size());
    for (int i = 0; i < samples; i++) {
      String name = names.get(i * names.size() / samples);
      ArmStatus a = arm(seen.get(name)).orElseThrow();
      Path events = Path.of(a.runDir, "events.jsonl");
      Files.createDirectories(events.getParent());
      String line = "{\"ts\":\"" + Instant.now() + "\",\"event\":\"endpoint-ready\",\"name\":\"worker-0\",\"role\":\"worker\","
          + "\"url\":\"http://127.0.0.1:6100/health\"}\n";
      lagProbes.put(name, System.nanoTime());
      Files.writeString(events, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      Thread.sleep(100 + random.nextInt(150));
    }
    try {
      await("the endpoint of " + samples + " runs in status", () -> lags.size() == samples);
    } catch (IllegalStateException e) {
      lagProbes.keySet().stream().filter(name -> !lags.containsKey(name)).findFirst().ifPresent(name ->
          System.out.println("not seen yet, " + name + ": " + client.getKubernetesSerialization().asJson(arm(seen.get(name)).orElse(null))));
      throw e;
    }
    List<Double> sorted = lags.values().stream().map(OperatorScaleBenchmark::seconds).sorted().toList();
    System.out.printf("scale %d status lag median: %.2f s%n", n, sorted.get((sorted.size() - 1) / 2));
    System.out.printf("scale %d status lag max: %.2f s%n", n, sorted.get(sorted.size() - 1));
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static void await(String what, BooleanSupplier done) throws InterruptedException {
    Instant deadline = Instant.now().plus(WAIT);
    while (!done.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("timed out after " + WAIT.toSeconds() + " s waiting for " + what);
      }
      Thread.sleep(20);
    }
  }
}
