package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.Mode;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.plan.Gates;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.PortMap;
import dev.srt.operator.plan.Probe;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.testinfra.DynamoMocker;
import dev.srt.operator.testinfra.RealProcesses;
import dev.srt.operator.testinfra.RealProgramsEnv;
import dev.srt.operator.testinfra.ScriptProbe;
import dev.srt.operator.testinfra.TestHosts;
import dev.srt.operator.testinfra.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39, 4a: the Dynamo frontend command line the renderer emits for the example's KV arm runs
 * for real (ai-dynamo 1.6.1 from the pinned environment), with etcd and nats-server started by
 * the command lines the renderer emits for them (Debian's etcd 3.4 and nats-server 2.9, which
 * Dynamo 1.6.1 accepts), over two of Dynamo's own {@code mocker} engines standing in for the
 * engine/sidecar pairs. It becomes ready through the gates the rendered script waits on, run by the
 * script's own probe program, routes chat requests, and its KV router applies the mockers' KV
 * events: the frontend's own {@code dynamo_component_kv_cache_events_applied} counter.
 *
 * <p>Every server listens on ports free at run time: the infra ports through the GpuCluster's
 * {@code spec.infra} (so the renderer's own command lines carry them), the frontend's fixed
 * {@code --http-port} rewritten in its argv and probe URLs.
 */
class RealDynamoFrontendIT {
  /** The frontend's KV-index counter at 1.6.1 (lib/runtime prometheus_names: kvrouter, component prefix). */
  static final String EVENTS_APPLIED = "dynamo_component_kv_cache_events_applied";
  /** Mean predicted overlap of the routed requests' blocks with the chosen worker's cache, as a histogram. */
  static final String PREDICTED_HIT_RATE_SUM = "dynamo_component_router_kv_hit_rate_sum";
  static final String WORKER_REGISTERED = "dynamo_component_router_worker_registered";
  static final String FRONTEND_REQUESTS = "dynamo_frontend_requests_total";
  private static final Duration GATE_TIMEOUT = Duration.ofMinutes(3);
  private static final String PLANES = "    eventPlane: zmq\n    requestPlane: tcp\n";

  @TempDir Path tmp;
  private RealProcesses processes;

  @AfterEach
  void stop() {
    if (processes != null) {
      processes.close();
    }
  }

  /** The example as shipped: etcd discovery, ZMQ event plane, TCP request plane (no NATS). */
  @Test
  void theExamplesKvArmRoutesOverMockersAndAppliesTheirKvEventsThroughZmq() throws Exception {
    Arm arm = start(PLANES);
    assertThat(arm.plan().processes(Role.INFRA)).extracting(ProcessSpec::name).containsExactly("etcd");
    routesAndAppliesKvEvents(arm);
  }

  /** The example with the NATS event plane: nats-server beside etcd, KV events over NATS. */
  @Test
  void withTheNatsEventPlaneKvEventsTravelOverNatsServer() throws Exception {
    Arm arm = start("    eventPlane: nats\n    requestPlane: tcp\n");
    assertThat(arm.plan().processes(Role.INFRA)).extracting(ProcessSpec::name).containsExactly("etcd", "nats-server");
    assertThat(arm.plan().process("router").env()).containsEntry("DYN_EVENT_PLANE", "nats").containsKey("NATS_SERVER");
    routesAndAppliesKvEvents(arm);
    // The frontend and both mockers hold connections, and messages (the KV events among them) went through it.
    var varz = get("http://127.0.0.1:" + arm.plan().process("nats-server").ports().get("monitor") + "/varz").json();
    assertThat(varz.path("connections").asInt()).isGreaterThanOrEqualTo(3);
    assertThat(varz.path("in_msgs").asLong()).isPositive();
  }

  private void routesAndAppliesKvEvents(Arm arm) throws Exception {
    String chat = arm.url() + "/v1/chat/completions";
    // Requests that share a prefix of several whole blocks: the first one's blocks are stored on
    // its worker, and the KV router learns them from that worker's events.
    String prefix = TinyModel.prompt(7, 4 * arm.blockSize());
    assertThat(post(chat, HttpTestClient.chat(arm.model(), prefix + " question one", 8, false)).status()).isEqualTo(200);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(storedEventsApplied(arm)).isPositive());

    HttpTestClient.Reply unary = post(chat, HttpTestClient.chat(arm.model(), prefix + " question two", 8, false));
    assertThat(unary.status()).as(unary.body()).isEqualTo(200);
    assertThat(unary.json().path("choices").path(0).path("message").path("content").asText()).isNotBlank();
    assertThat(unary.json().path("usage").path("completion_tokens").asInt()).isEqualTo(8);
    HttpTestClient.Reply stream = post(chat, HttpTestClient.chat(arm.model(), prefix + " question three", 8, true));
    assertThat(stream.status()).as(stream.body()).isEqualTo(200);
    assertThat(stream.body()).contains("data: {").contains("\"finish_reason\":\"length\"").contains("data: [DONE]");

    String metrics = get(arm.url() + "/metrics").body();
    assertThat(sum(metrics, FRONTEND_REQUESTS, "request_type=\"unary\"", "status=\"success\"")).isGreaterThanOrEqualTo(3);
    assertThat(sum(metrics, FRONTEND_REQUESTS, "request_type=\"stream\"", "status=\"success\"")).isEqualTo(1);
    assertThat(sum(metrics, WORKER_REGISTERED)).as("both mockers registered with the KV router").isEqualTo(2);
    assertThat(sum(metrics, EVENTS_APPLIED, "event_type=\"stored\"", "status=\"ok\"")).isPositive();
    assertThat(sum(metrics, EVENTS_APPLIED, "status=\"ok\"")).as("no event was refused by the index")
        .isEqualTo(sum(metrics, EVENTS_APPLIED));
    assertThat(sum(metrics, PREDICTED_HIT_RATE_SUM)).as("the router found the shared prefix cached when it routed").isPositive();
    // The renderer's DYN_REQUEST_TRACE / DYN_REQUEST_TRACE_FILE_PATH: the frontend writes its trace there.
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(requestTraces()).isNotEmpty());
  }

  private double storedEventsApplied(Arm arm) {
    return sum(get(arm.url() + "/metrics").body(), EVENTS_APPLIED, "event_type=\"stored\"", "status=\"ok\"");
  }

  private List<Path> requestTraces() throws IOException {
    try (Stream<Path> files = Files.list(processes.dir().resolve("logs"))) {
      return files.filter(f -> f.getFileName().toString().startsWith("dynamo-request-trace")).toList();
    }
  }

  /** The example's running KV arm: its plan, the frontend's URL, its model and KV block size. */
  private record Arm(RunPlan plan, String url, String model, int blockSize) {}

  /**
   * Plans the example's {@code dynamo-kv} arm with {@code planes} on a local direct cluster whose
   * infra executables are the machine's and whose infra ports are free, then starts infra, two
   * mockers and the frontend, each gated as the script gates them.
   */
  private Arm start(String planes) throws Exception {
    String python = RealProgramsEnv.bin("python");
    String etcd = TestHosts.program("etcd", "apt-get install etcd-server (.ci/install-deps.sh installs it)");
    String nats = TestHosts.program("nats-server", "apt-get install nats-server (.ci/install-deps.sh installs it)");
    RunPlan plan = plan(planes, etcd, nats);
    Path runDir = Files.createDirectories(tmp.resolve("run"));
    processes = new RealProcesses(runDir);
    ScriptProbe probes = new ScriptProbe(python, runDir);

    for (ProcessSpec infra : plan.processes(Role.INFRA)) {
      processes.start(infra.name(), infra.argv(), infra.env());
    }
    passGate(plan, Gates.INFRA_READY, probes, url -> url);

    ProcessSpec engine = plan.processes(Role.ENGINE).get(0);
    String model = valueAfter(engine.argv(), "--served-model-name");
    int blockSize = Integer.parseInt(valueAfter(engine.argv(), "--page-size"));
    Path modelDir = TinyModel.write(tmp.resolve("model"));
    List<ProcessSpec> sidecars = plan.processes(Role.SIDECAR);
    assertThat(sidecars).hasSize(2);
    for (int i = 0; i < sidecars.size(); i++) {
      // A mocker stands in for an engine and its sidecar: the Dynamo side of the pair gets the
      // sidecar's env, but not its fixed system port (the status server is off without it). A free
      // port will not do either: Dynamo 1.6.1 reads DYN_SYSTEM_PORT as an i16 and refuses an
      // ephemeral port above 32767 ("invalid value unsigned int `35731`, expected i16").
      Map<String, String> env = new LinkedHashMap<>(sidecars.get(i).env());
      assertThat(env.remove("DYN_SYSTEM_PORT")).isNotNull();
      processes.start("mocker-" + i, DynamoMocker.argv(python, modelDir, model, "dynamo", blockSize, 10), env);
    }

    int httpPort = RealProcesses.freePort();
    ProcessSpec router = plan.process("router");
    processes.start("router", frontendArgv(router.argv(), plan.settings().python(), python, httpPort), router.env());
    String planned = "http://127.0.0.1:" + PortMap.ROUTER;
    String url = "http://127.0.0.1:" + httpPort;
    passGate(plan, Gates.ROUTER_READY, probes, u -> rewrite(u, planned, url));
    passGate(plan, Gates.CANARY, probes, u -> rewrite(u, planned, url));
    return new Arm(plan, url, model, blockSize);
  }

  private RunPlan plan(String planes, String etcd, String nats) {
    String yaml = Examples.exampleYaml();
    assertThat(yaml).contains(PLANES);
    String cluster = """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec:
          mode: direct
          transport: local
          workDir: %s
          infra: {etcd: %s, natsServer: %s, etcdClientPort: %d, etcdPeerPort: %d, natsPort: %d, natsMonitorPort: %d}
        """.formatted(tmp, etcd, nats, RealProcesses.freePort(), RealProcesses.freePort(), RealProcesses.freePort(),
        RealProcesses.freePort());
    LoadedResources r = Examples.parse(yaml.replace(PLANES, planes) + "\n---\n" + cluster);
    return Planner.plan(r.comparisons().get(0), r.clusters().get(0), "dynamo-kv", Mode.DIRECT);
  }

  /** The frontend's planned argv, run by the environment's interpreter on {@code httpPort}. */
  private static List<String> frontendArgv(List<String> planned, String plannedPython, String python, int httpPort) {
    assertThat(planned.subList(0, 3)).containsExactly(plannedPython, "-m", "dynamo.frontend");
    List<String> argv = new ArrayList<>(planned);
    argv.set(0, python);
    int port = argv.indexOf("--http-port");
    assertThat(argv.get(port + 1)).isEqualTo(String.valueOf(PortMap.ROUTER));
    argv.set(port + 1, String.valueOf(httpPort));
    return argv;
  }

  /** Waits until every check of the plan's gate {@code name} passes, in order, as {@code srt_wait} does. */
  private void passGate(RunPlan plan, String name, ScriptProbe probes, java.util.function.UnaryOperator<String> url) {
    Gate gate = plan.gates().stream().filter(g -> g.name().equals(name)).findFirst().orElseThrow();
    for (Gate.Check check : gate.checks()) {
      Probe p = check.probe();
      Probe local = new Probe(p.kind(), url.apply(p.url()), p.status(), p.count(), p.field(), p.model());
      await().atMost(GATE_TIMEOUT).pollInterval(Duration.ofMillis(500)).pollDelay(Duration.ZERO)
          .failFast("a process exited", () -> assertThat(processes.exited()).as(processes.exitedLogs(3000)).isEmpty())
          .untilAsserted(() -> assertThat(probes.passes(local)).as(name + ": " + local + "\nrouter log:\n" + processes.tail("router", 3000))
              .isTrue());
    }
  }

  private static String rewrite(String url, String planned, String actual) {
    assertThat(url).startsWith(planned + "/");
    return actual + url.substring(planned.length());
  }

  private static String valueAfter(List<String> argv, String flag) {
    int i = argv.indexOf(flag);
    assertThat(i).as(flag + " in " + argv).isNotNegative();
    return argv.get(i + 1);
  }

  /** The sum of the samples of {@code name} whose labels contain every one of {@code labels}. */
  static double sum(String prometheusText, String name, String... labels) {
    double total = 0;
    for (String line : prometheusText.split("\n")) {
      if (!(line.startsWith(name + "{") || line.startsWith(name + " "))) {
        continue;
      }
      int end = line.lastIndexOf(' ');
      String series = line.substring(0, end);
      if (Stream.of(labels).allMatch(series::contains)) {
        total += Double.parseDouble(line.substring(end + 1));
      }
    }
    return total;
  }
}
