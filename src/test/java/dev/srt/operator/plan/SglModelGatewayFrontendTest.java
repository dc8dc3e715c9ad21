package dev.srt.operator.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.Mode;
import dev.srt.operator.config.FlagVocabulary;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.PortTable;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.plan.frontends.SglModelGatewayFrontend;
import dev.srt.operator.render.Scripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The SGLang Model Gateway arm of examples/gateway-vs-dynamo.yaml: its argv over the topology's
 * workers in its own flag vocabulary, its Prometheus port in the port table and the plan, its
 * readiness after every worker's /health, and its rules.
 */
class SglModelGatewayFrontendTest {
  static final Path EXAMPLE = Path.of("examples/gateway-vs-dynamo.yaml");
  static final String ARM = "sgl-model-gateway";

  private static RunPlan plan(Mode mode) {
    return Examples.plan(EXAMPLE, ARM, mode);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theGatewayRoutesEveryWorkerOfTheTopologyWithItsOwnFlags(Mode mode) {
    RunPlan plan = plan(mode);
    ProcessSpec router = plan.processes(Role.ROUTER).get(0);
    List<String> argv = router.argv();
    assertThat(argv).startsWith("python3", "-m", "sglang_router.launch_router", "--worker-urls");
    List<String> workerUrls = plan.topology().workers().stream()
        .map(w -> "http://" + (mode == Mode.DIRECT ? "127.0.0.1" : "{{node:" + w.node() + "}}") + ":" + w.ports().http()).toList();
    assertThat(workerUrls).hasSize(8).doesNotHaveDuplicates();
    assertThat(argv.subList(4, 12)).containsExactlyElementsOf(workerUrls);
    assertThat(argv.subList(12, argv.size())).containsExactly("--host", "0.0.0.0", "--port", "8000", "--prometheus-port", "29000",
        "--balance-abs-threshold", "64", "--balance-rel-threshold", "1.5", "--cache-threshold", "0.3", "--policy", "cache_aware");
    assertThat(argv.stream().filter(w -> w.startsWith("--")))
        .allSatisfy(flag -> assertThat(FlagVocabulary.knows(SglModelGatewayFrontend.FLAGS, flag)).as(flag).isTrue());
    // Its workers are the native engines sgl-router routes, publishing KV events as the spec says.
    assertThat(plan.processes(Role.WORKER)).hasSize(8).allSatisfy(w -> {
      assertThat(w.argv()).containsSubsequence("-m", "sglang.launch_server").contains("--kv-events-config");
      assertThat(w.gpus()).hasSize(1);
    });
    assertThat(plan.facts()).containsEntry("frontendKind", ARM).containsEntry("routerReadsKvEvents", false)
        .containsEntry("routerHealthPath", "/readiness");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void itsReadinessEndpointIsGatedAfterEveryWorkersHealth(Mode mode) {
    RunPlan plan = plan(mode);
    assertThat(plan.gates()).extracting(Gate::name).containsExactly(Gates.WORKERS_HEALTH, Gates.ROUTER_READY, Gates.CANARY);
    Gate workers = plan.gates().get(0);
    assertThat(workers.checks()).hasSize(8).allSatisfy(c -> {
      assertThat(c.role()).isEqualTo(Role.WORKER);
      assertThat(c.probe().url()).endsWith("/health");
    });
    assertThat(workers.checks()).extracting(c -> c.probe().url()).doesNotHaveDuplicates();
    assertThat(plan.gates().get(1).checks()).singleElement()
        .satisfies(c -> assertThat(c.probe()).isEqualTo(Probe.httpStatus("http://127.0.0.1:8000/readiness", 200)));
    // The gateway itself starts only after the workers' gate: it registers its --worker-urls once.
    assertThat(plan.processes(Role.ROUTER).get(0).afterGate()).isEqualTo(Gates.WORKERS_HEALTH);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void itsPrometheusPortIsInThePlanAndScrapedThere(Mode mode) {
    RunPlan plan = plan(mode);
    assertThat(plan.processes(Role.ROUTER).get(0).ports()).containsExactlyInAnyOrderEntriesOf(Map.of("http", 8000, "metrics", 29000));
    String script = Scripts.render(plan);
    assertThat(script).contains("srt_scrape results/metrics-before.txt http://127.0.0.1:29000/metrics ")
        .doesNotContain("http://127.0.0.1:8000/metrics");
    if (mode == Mode.DIRECT) {
      assertThat(script).containsPattern("srt_wait_ports_free [0-9 ]* 8000 [0-9 ]*29000\n");
    }
  }

  @Test
  void thePortTableHoldsItsPrometheusPortForEveryRangeToAvoid() {
    assertThat(PortTable.fixed(8, 8)).contains(new PortTable.Block("Model Gateway Prometheus port", 29000, 29000));
    // An infra service of the cluster on it is refused, as on any other fixed port.
    assertThat(errors(example(), "  infra: {etcdClientPort: 29000}\n")).singleElement()
        .satisfies(p -> assertThat(p.message()).contains("etcd client port (spec.infra.etcdClientPort)", "is 29000",
            "inside the Model Gateway Prometheus port 29000"));
  }

  @Test
  void theExampleIsValidWithBothClusters() {
    for (Path cluster : List.of(Examples.SLURM_CLUSTER, Examples.DIRECT_CLUSTER)) {
      LoadedResources r = Examples.load(EXAMPLE, cluster);
      assertThat(Validator.validate(r.comparisons().get(0), r.clusters().get(0))).as(cluster.toString()).isEmpty();
    }
  }

  @Test
  void itsRulesNameTheField() {
    assertThat(errors(gatewayArgs("{policy: cache_aware_zmq}"), "")).extracting(Problem::path, Problem::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.arms[0].frontend.args.policy", "cache_aware_zmq is not a policy of the Model Gateway; "
            + "its policies are random, round_robin, cache_aware, power_of_two, manual"));
    assertThat(errors(gatewayArgs("{prometheus_port: 9090, worker-urls: [http://a:1]}"), "")).extracting(Problem::path)
        .containsExactly("spec.arms[0].frontend.args.prometheus_port", "spec.arms[0].frontend.args.worker-urls");
    assertThat(errors(gatewayArgs("{pd-disaggregation: true}"), "")).singleElement().satisfies(p -> {
      assertThat(p.path()).isEqualTo("spec.arms[0].frontend.args.pd-disaggregation");
      assertThat(p.message()).isEqualTo("--pd-disaggregation would replace the static --worker-urls pool that srt-operator plans from spec.resources");
    });
    assertThat(errors(example().replace("      type: sgl-model-gateway\n", "      type: sgl-model-gateway\n      source: /src/sgl-router\n"), ""))
        .singleElement().satisfies(p -> {
          assertThat(p.path()).isEqualTo("spec.arms[0].frontend.source");
          assertThat(p.message()).startsWith("only for frontend.type: sgl-router");
        });
    // A flag outside its vocabulary is an error; an abbreviation (argparse expands it) is a warning, and refused for a managed flag.
    List<Problem> typo = problems(gatewayArgs("{polcy: random}"), "");
    assertThat(typo).singleElement().satisfies(p -> {
      assertThat(p.isError()).isTrue();
      assertThat(p.message()).startsWith("--polcy is not a flag of sglang-router-launch-router");
    });
    assertThat(problems(gatewayArgs("{prometheus-p: 9090}"), "")).singleElement().satisfies(p -> {
      assertThat(p.isError()).isTrue();
      assertThat(p.message()).startsWith("--prometheus-p abbreviates --prometheus-port (argparse takes an unambiguous prefix), "
          + "is set by srt-operator for the Model Gateway");
    });
    assertThat(errors(gatewayArgs("{pd-dis: true}"), "")).extracting(Problem::message)
        .contains("--pd-dis would replace the static --worker-urls pool that srt-operator plans from spec.resources");
  }

  @Test
  void itReadsNoKvEventsSoItsCacheAwarePolicyNeedsNone() {
    // Dynamo's KV mode warns without events; the gateway's approximate tree does not.
    String noEvents = example().replace("    kvEvents: {publisher: zmq, topic: kv-events}\n", "");
    assertThat(problems(noEvents, "")).singleElement().satisfies(p -> {
      assertThat(p.path()).isEqualTo("spec.arms[1].frontend.args.router-mode");
      assertThat(p.isError()).isFalse();
    });
  }

  @Test
  void aPrefillDecodeTopologyIsRefused() {
    String disagg = gatewayOnly().replace("resources: {aggNodes: 1, aggWorkers: 8, gpusPerWorker: 1}",
        "resources: {prefillNodes: 1, decodeNodes: 1, prefillWorkers: 1, decodeWorkers: 1, gpusPerPrefill: 4, gpusPerDecode: 4}");
    assertThat(errors(disagg, "")).extracting(Problem::message).contains("frontend.type: sgl-model-gateway routes an aggregate "
        + "worker pool only; frontend.type: dynamo routes prefill and decode workers (remove the prefill/decode resources)");
  }

  private static String example() {
    return read(EXAMPLE);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The example with the gateway arm's args replaced. */
  private static String gatewayArgs(String args) {
    return example().replace("{policy: cache_aware, cache-threshold: 0.3, balance-abs-threshold: 64, balance-rel-threshold: 1.5}", args);
  }

  /** The example without its Dynamo arm. */
  @Test
  void kvEventsThatNoArmReadsAreWarnedOfWhenEveryArmIsAGateway() {
    assertThat(gatewayOnly()).contains("kvEvents: {publisher: zmq");
    assertThat(problems(gatewayOnly(), "")).singleElement().satisfies(p -> {
      assertThat(p.path()).isEqualTo("spec.backend.kvEvents");
      assertThat(p.isError()).isFalse();
      assertThat(p.message()).contains("no arm's router reads them (frontend.type: sgl-router or dynamo can)");
    });
    assertThat(problems(gatewayOnly().replace("    kvEvents: {publisher: zmq, topic: kv-events}\n", ""), "")).isEmpty();
    // The example's Dynamo arm in KV mode reads them: no warning.
    assertThat(problems(example(), "")).isEmpty();
  }

  private static String gatewayOnly() {
    String yaml = example();
    return yaml.substring(0, yaml.indexOf("  - name: dynamo-kv\n")) + yaml.substring(yaml.indexOf("  execution:"));
  }

  /** The problems of {@code comparison} on the example direct cluster with {@code clusterSpec} added to its spec. */
  private static List<Problem> problems(String comparison, String clusterSpec) {
    String cluster = read(Examples.DIRECT_CLUSTER) + clusterSpec;
    return LoadedResources.parse("inline.yaml", comparison + "\n---\n" + cluster).problems();
  }

  private static List<Problem> errors(String comparison, String clusterSpec) {
    return problems(comparison, clusterSpec).stream().filter(Problem::isError).toList();
  }
}
