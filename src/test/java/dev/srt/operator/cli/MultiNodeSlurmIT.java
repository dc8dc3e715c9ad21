package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.EndpointStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.HealthCheckSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.Mode;
import dev.srt.operator.base.Shell;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.emulator.ListenAddress;
import dev.srt.operator.host.Backend;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.Submission;
import dev.srt.operator.host.Transport;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.Runs;
import dev.srt.operator.testinfra.TestHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The multi-node examples ({@code examples/router-comparison-multinode.yaml} and
 * {@code router-comparison-disagg-multinode.yaml}) end to end over SSH on
 * the test Slurm's multinode partition, whose nodes are network namespaces, each with its own
 * address, hostname and 8 fake GPUs (docs/testing.md): every worker spans two nodes (TP16 on 8-GPU
 * nodes), its follower rank joins the leader across nodes, and the three arms run to their
 * benchmark results. The example is scaled to the partition (two nodes: one worker), and replays a
 * small Mooncake trace of the test's own; everything else is as written. The prefill/decode example
 * runs its prefill worker on one node and its decode worker on the other.
 */
@ResourceLock(TestHosts.MULTINODE_PARTITION)
class MultiNodeSlurmIT {
  private static final Path COMPARISON = Path.of("examples/router-comparison-multinode.yaml");
  private static final Path DISAGG_COMPARISON = Path.of("examples/router-comparison-disagg-multinode.yaml");
  private static final List<String> ARMS = List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy");
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(4);

  private static TestHosts.MultiNodePartition partition;
  private static SshEmulatedHost emulated;

  private Transport transport;
  private final List<ArmRunner.Run> runs = new ArrayList<>();

  @BeforeAll
  static void emulatedNodes() throws Exception {
    partition = TestHosts.requireMultiNodeSlurm();
    emulated = SshEmulatedHost.install("srt-multinode-");
    // Conversations sharing their first blocks, a request every 50 ms (the example's aiperf flags).
    StringBuilder trace = new StringBuilder();
    for (int i = 0; i < 24; i++) {
      trace.append("{\"timestamp\": %d, \"input_length\": 1100, \"output_length\": 16, \"hash_ids\": [%d, %d, %d]}%n"
          .formatted(1000 + 50 * i, i % 3, 10 + i % 3, 100 + i));
    }
    Files.writeString(emulated.base().resolve("trace.jsonl"), trace);
  }

  @AfterAll
  static void removeHost() throws IOException {
    SshEmulatedHost.remove(emulated);
  }

  @Test
  void theMultiNodeExampleRunsEveryArmAcrossTheNodes() throws Exception {
    int workers = partition.nodes() / 2;
    GpuCluster cluster = emulated.cluster("h100-box", "slurm", Map.of(ListenAddress.VAR, "node"), partition.name());
    RouterComparison rc = comparison(workers);
    transport = ApplyCommand.transport(cluster);
    ArmRunner runner = new ArmRunner(new dev.srt.operator.run.BackendRunHost(Backend.forMode(Mode.SLURM, transport, cluster.getSpec().workDir), Mode.SLURM), rc, cluster,
        Mode.SLURM, ArmRunner.pollInterval(cluster));
    List<String> nodes = IntStream.rangeClosed(1, 2 * workers).mapToObj(k -> "srt-node" + k).toList();
    List<String> addresses = nodes.stream().map(this::nodeAddress).toList();

    try {
      for (String arm : ARMS) {
        List<RunEvent> events = new CopyOnWriteArrayList<>();
        ArmRunner.Run run = run(runner, arm, events);
        String dir = run.status.runDir;
        assertThat(run.phase()).as(diagnostics(run)).isEqualTo(ArmPhase.Succeeded);
        assertThat(run.status.results.requestThroughput).isNotNull();
        assertThat(run.status.results.meanTtftMs).isNotNull();
        assertThat(run.status.workers.ready).isEqualTo(workers);
        // (the run reports its end before Slurm has finished the job: COMPLETING, then COMPLETED)
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(host("scontrol -o show job " + Shell.quote(run.jobId)))
            .contains("JobState=COMPLETED", "ExitCode=0:0", "Partition=" + partition.name(), "NumNodes=" + 2 * workers));

        // the script ran on the first node, under that node's own hostname
        assertThat(events).filteredOn(e -> e.event().equals("run-started")).singleElement()
            .satisfies(e -> assertThat(e.text("host")).isEqualTo(nodes.get(0)));
        boolean sidecars = !arm.equals("sgl-router");
        for (int w = 0; w < workers; w++) {
          String leaderNode = addresses.get(2 * w);
          String followerNode = addresses.get(2 * w + 1);
          // the leader serves on its node's address, where the workers-health gate found it
          EndpointStatus endpoint = run.status.endpoints.get(w);
          assertThat(endpoint.url).isEqualTo("http://" + leaderNode + ":6100");
          assertThat(endpoint.node).isEqualTo(2 * w);
          // rank 1 ran on the next node and joined its leader across the bridge
          String leaderLog = host("cat " + Shell.quote(dir + "/logs/" + (sidecars ? "engine-" : "worker-") + w + ".log"));
          String followerLog = host("cat " + Shell.quote(dir + "/logs/" + (sidecars ? "engine-" : "worker-") + w + "-rank-1.log"));
          assertThat(leaderLog).contains("rank 1 joined from " + followerNode + " (2/2)")
              .contains("serving deepseek-ai/DeepSeek-V3 on http://" + leaderNode + ":6100");
          assertThat(followerLog).contains("rank 1 joined the leader at " + leaderNode + ":8300");
          // each node's engine rank sees all 8 of its node's GPUs
          assertThat(leaderLog).contains("CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\n");
          assertThat(followerLog).contains("CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7\n");
        }
        if (sidecars) {
          // the frontend found the leader's sidecar, which named the engine by its node's address
          assertThat(host("cat " + Shell.quote(dir + "/logs/sidecar-0.log")))
              .contains("(http://" + addresses.get(0) + ":6100, disaggregation mode null)");
        }
      }
    } finally {
      endRuns(((dev.srt.operator.run.BackendRunHost) runner.host()).backend());
      transport.close();
    }
  }

  /**
   * The prefill/decode example across nodes, as written: the prefill worker on the first node, the
   * decode worker on the second, etcd, nats-server and the frontend on the first. Every request is
   * prefilled on one node and decoded on the other, whose engine fetches the KV from the prefill
   * node's bootstrap server; the decode sidecar reaches etcd and NATS across the bridge. One arm:
   * the policy arm runs the same workers (a render test checks it), and the three arms above
   * already cover its build.
   */
  @Test
  void theDisaggregatedExamplePrefillsOnOneNodeAndDecodesOnTheOther() throws Exception {
    GpuCluster cluster = emulated.cluster("h100-box", "slurm", Map.of(ListenAddress.VAR, "node"), partition.name());
    RouterComparison rc = shortened(DISAGG_COMPARISON);
    assertThat(rc.getSpec().resources.prefillNodes).as("each role on a node of its own").isEqualTo(1);
    assertThat(rc.getSpec().resources.decodeNodes).isEqualTo(1);
    rc.getSpec().workload.args.putAll(Map.of("num-prompts", 16, "gsp-num-groups", 4, "gsp-prompts-per-group", 4,
        "gsp-system-prompt-len", 256, "gsp-question-len", 32, "gsp-output-len", 8));
    transport = ApplyCommand.transport(cluster);
    ArmRunner runner = new ArmRunner(new dev.srt.operator.run.BackendRunHost(Backend.forMode(Mode.SLURM, transport, cluster.getSpec().workDir), Mode.SLURM), rc, cluster,
        Mode.SLURM, ArmRunner.pollInterval(cluster));
    String head = nodeAddress("srt-node1");
    String second = nodeAddress("srt-node2");

    try {
      List<RunEvent> events = new CopyOnWriteArrayList<>();
      ArmRunner.Run run = run(runner, "dynamo-kv", events);
      String dir = run.status.runDir;
      assertThat(run.phase()).as(diagnostics(run)).isEqualTo(ArmPhase.Succeeded);
      // the emulated bench-serving scales the prompts per group down (docs/emulator.md)
      assertThat(run.status.results.completed).isPositive();
      assertThat(run.status.results.failed).isZero();
      assertThat(run.status.results.meanTtftMs).isNotNull();
      assertThat(run.status.workers.prefill.ready).isEqualTo(1);
      assertThat(run.status.workers.decode.ready).isEqualTo(1);
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(host("scontrol -o show job " + Shell.quote(run.jobId)))
          .contains("JobState=COMPLETED", "ExitCode=0:0", "Partition=" + partition.name(), "NumNodes=2"));
      assertThat(events).filteredOn(e -> e.event().equals("run-started")).singleElement()
          .satisfies(e -> assertThat(e.text("host")).isEqualTo("srt-node1"));

      // prefill on the first node, decode on the second, each serving on its node's address
      assertThat(run.status.endpoints).extracting(e -> e.role, e -> e.node, e -> e.url).containsExactly(
          Tuple.tuple("prefill", 0, "http://" + head + ":6100"),
          Tuple.tuple("decode", 1, "http://" + second + ":6100"));
      assertThat(log(dir, "engine-prefill-0")).contains("on http://" + head + ":6100 (disaggregation mode prefill, bootstrap port 7200)");
      assertThat(log(dir, "engine-decode-0")).contains("on http://" + second + ":6100 (disaggregation mode decode");
      // the prefill sidecar published its node's address as the bootstrap host; both sidecars and
      // the frontend found etcd and NATS on the first node
      assertThat(log(dir, "sidecar-prefill-0")).contains("bootstrap server " + head + ":7200")
          .contains("connected to NATS at " + head + ":4222");
      assertThat(log(dir, "sidecar-decode-0")).contains("(http://" + second + ":6100, disaggregation mode decode)")
          .contains("connected to NATS at " + head + ":4222");
      assertThat(log(dir, "router")).contains("connected to NATS at " + head + ":4222");

      // every prompt was prefilled on the first node and decoded on the second, which computed no prompt itself
      String after = host("cat " + Shell.quote(dir + "/results/metrics-after.txt"));
      String model = rc.getSpec().model.servedModelName;
      assertThat(counter(after, "http://" + head + ":6100/metrics", "sglang:prompt_tokens_total", model)).isPositive();
      assertThat(counter(after, "http://" + head + ":6100/metrics", "sglang:generation_tokens_total", model)).isZero();
      assertThat(counter(after, "http://" + second + ":6100/metrics", "sglang:prompt_tokens_total", model)).isZero();
      assertThat(counter(after, "http://" + second + ":6100/metrics", "sglang:generation_tokens_total", model))
          .isGreaterThanOrEqualTo(run.status.results.completed);
    } finally {
      endRuns(((dev.srt.operator.run.BackendRunHost) runner.host()).backend());
      transport.close();
    }
  }

  // ------------------------------------------------------------------ helpers

  /** {@code file} as written, with short readiness settings. */
  private static RouterComparison shortened(Path file) {
    LoadedResources loaded = LoadedResources.load(List.of(file));
    assertThat(loaded.hasErrors()).as(loaded.problems().toString()).isFalse();
    RouterComparison rc = loaded.comparisons().get(0);
    rc.getSpec().healthCheck = new HealthCheckSpec();
    rc.getSpec().healthCheck.timeout = "3m";
    rc.getSpec().healthCheck.interval = "1s";
    return rc;
  }

  private String log(String dir, String process) {
    return host("cat " + Shell.quote(dir + "/logs/" + process + ".log"));
  }

  /** A counter of one endpoint in a file of {@code srt_scrape}, which heads each endpoint's metrics with its URL. */
  private static double counter(String scrape, String url, String name, String model) {
    String section = scrape.substring(scrape.indexOf("# srt-scrape " + url + "\n"));
    int next = section.indexOf("# srt-scrape ", 1);
    String line = name + "{model_name=\"" + model + "\"} ";
    return (next < 0 ? section : section.substring(0, next)).lines().filter(l -> l.startsWith(line))
        .mapToDouble(l -> Double.parseDouble(l.substring(line.length()).trim())).findFirst()
        .orElseThrow(() -> new AssertionError("no " + line + "in the metrics of " + url + ":\n" + scrape));
  }

  /** The example, with {@code workers} workers of two nodes each, short readiness settings and the test's trace. */
  private static RouterComparison comparison(int workers) {
    RouterComparison rc = shortened(COMPARISON);
    assertThat(rc.getSpec().resources.gpusPerWorker).as("the example's workers span two 8-GPU nodes").isEqualTo(16);
    rc.getSpec().resources.aggNodes = 2 * workers;
    rc.getSpec().resources.aggWorkers = workers;
    rc.getSpec().workload.args.put("input-file", emulated.base().resolve("trace.jsonl").toString());
    return rc;
  }

  /** Runs one arm to its end, collecting its events. */
  private ArmRunner.Run run(ArmRunner runner, String arm, List<RunEvent> events) {
    return SshEmulatedHost.runWithin(RUN_TIMEOUT, runner, arm, new ArmRunner.Listener() {
      @Override
      public void submitted(ArmRunner.Run r, Submission submission) {
        runs.add(r);
      }

      @Override
      public void events(ArmRunner.Run r, List<RunEvent> seen) {
        events.addAll(seen);
      }
    });
  }

  /** Every run ends with the test: cancelled if still going, and its processes gone from every node. */
  private void endRuns(Backend backend) throws HostException {
    for (ArmRunner.Run run : runs) {
      backend.cancel(run.ref, run.jobId);
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
          assertThat(host("grep -lzxF -- " + Shell.quote("SRT_RUN_ID=" + run.ref.runId()) + " /proc/[0-9]*/environ 2>/dev/null"))
              .as("processes of run " + run.ref).isBlank());
    }
  }

  /** The node's NodeAddr, as the scripts read it. */
  private String nodeAddress(String node) {
    String out = host("scontrol -o show node " + Shell.quote(node));
    return Stream.of(out.split("\\s+")).filter(f -> f.startsWith("NodeAddr=")).map(f -> f.substring(9)).findFirst()
        .orElseThrow(() -> new AssertionError("no NodeAddr for " + node + ": " + out));
  }

  private String host(String command) {
    try {
      return transport.exec(command, Duration.ofSeconds(30)).stdout();
    } catch (HostException e) {
      throw new IllegalStateException(command + ": " + e.getMessage(), e);
    }
  }

  private String diagnostics(ArmRunner.Run run) {
    return run.ref.arm() + " " + run.status.phase + ": " + run.status.message + "\n--- logs/script.log:\n"
        + host("tail -n 40 " + Shell.quote(run.status.runDir + "/logs/script.log") + " 2>&1") + "\n--- logs:\n"
        + host("cd " + Shell.quote(run.status.runDir + "/logs") + " && tail -n 5 -- *.log 2>&1")
            .lines().collect(Collectors.joining("\n"));
  }
}
