package dev.srt.operator.plan;

import dev.srt.operator.api.Mode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract tests of the pull request that started this project (arms-contract.md section
 * 12), ported as behaviour tests over the plans. Script-level behaviour (supervisor, TOML edits)
 * is exercised by the *IT tests in the render package.
 */
class ArmsContractTest {
  static final String HASH = "4dca1626b2708383514fcd65ac816ba7429c05a4";
  static final String REV = "411b4648e7fd50c776f0c787f1abb2592eeef41b";

  static RunPlan direct(String arm) {
    return Examples.plan(arm, Mode.DIRECT);
  }

  static RunPlan slurm(String arm) {
    return Examples.plan(arm, Mode.SLURM);
  }

  static RunPlan planOf(String yaml, String arm, Mode mode) {
    LoadedResources r = Examples.parse(yaml);
    return Planner.plan(r.comparisons().get(0), null, arm, mode);
  }

  static List<Problem> errorsOf(String yaml) {
    return LoadedResources.parse("inline.yaml", yaml).problems().stream().filter(Problem::isError).toList();
  }

  @Test
  void experimentalRouterIsRegisteredAndStatusGated() {
    RunPlan p = direct("sgl-router");
    assertThat(p.frontend()).isEqualTo("sgl-router");
    assertThat(p.facts()).containsEntry("routerHealthPath", "/readyz");
    Gate router = p.gates().get(1);
    assertThat(router.name()).isEqualTo(Gates.ROUTER_READY);
    assertThat(router.checks()).singleElement().satisfies(c -> {
      assertThat(c.probe().kind()).isEqualTo(dev.srt.operator.plan.Probe.Kind.HTTP_STATUS);
      assertThat(c.probe().url()).isEqualTo("http://127.0.0.1:8000/readyz");
      assertThat(c.probe().status()).isEqualTo(200);
    });
  }

  @Test
  void routerCommandAdvertisesEveryAggregateWorker() {
    List<String> argv = slurm("sgl-router").process("router").argv();
    assertThat(argv.get(0)).endsWith("/release/sgl-router");
    int urls = argv.indexOf("--worker-urls");
    assertThat(argv.subList(urls + 1, urls + 3)).containsExactly("http://{{node:0}}:6100", "http://{{node:0}}:6132");
    assertThat(String.join(" ", argv)).contains("--host 0.0.0.0 --port 8000").doesNotContain("--pd-disaggregation");
    assertThat(direct("sgl-router").process("router").argv()).containsSequence("--worker-urls", "http://127.0.0.1:6100", "http://127.0.0.1:6132");
  }

  @Test
  void experimentalRouterRejectsPrefillDecodeTopology() {
    String yaml = Examples.exampleYaml().replace("resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}",
        "resources: {prefillNodes: 1, decodeNodes: 1, prefillWorkers: 1, decodeWorkers: 1}");
    assertThat(errorsOf(yaml)).anySatisfy(e -> {
      assertThat(e.path()).isEqualTo("spec.arms[0].frontend.type");
      assertThat(e.message()).contains("aggregate worker pool");
    });
  }

  @Test
  void gatesOnEveryWorkerNotJustTheFirst() {
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      RunPlan p = direct(arm);
      Gate workers = p.gates().stream().filter(g -> g.name().equals(Gates.WORKERS_HEALTH)).findFirst().orElseThrow();
      assertThat(workers.checks()).extracting(c -> c.probe().url())
          .containsExactly("http://127.0.0.1:6100/health", "http://127.0.0.1:6132/health");
    }
    assertThat(direct("sgl-router").gates()).extracting(Gate::name).containsExactly(Gates.WORKERS_HEALTH, Gates.ROUTER_READY, Gates.CANARY);
    // Dynamo arms first wait for their etcd.
    assertThat(direct("dynamo-kv").gates()).extracting(Gate::name)
        .containsExactly(Gates.INFRA_READY, Gates.WORKERS_HEALTH, Gates.ROUTER_READY, Gates.CANARY);
  }

  @Test
  void suppliesRequiredModelIdentity() {
    List<String> argv = direct("sgl-router").process("router").argv();
    assertThat(argv).containsSequence("--model-id", "Qwen/Qwen3-32B-FP8", "--tokenizer-path", "/models/Qwen3-32B-FP8/tokenizer.json");
  }

  @Test
  void yieldsToExplicitModelIdentity() {
    String yaml = Examples.exampleYaml().replace("args: {policy: cache_aware}",
        "args: {policy: cache_aware, model-id: my-model, tokenizer_path: /tok/tokenizer.json}");
    List<String> argv = planOf(yaml, "sgl-router", Mode.DIRECT).process("router").argv();
    assertThat(argv).containsSequence("--model-id", "my-model").containsSequence("--tokenizer-path", "/tok/tokenizer.json")
        .doesNotContain("Qwen/Qwen3-32B-FP8", "/models/Qwen3-32B-FP8/tokenizer.json");
    assertThat(argv.stream().filter(a -> a.equals("--tokenizer-path"))).hasSize(1);
  }

  @Test
  void buildsFromSourceAndUsesThatBinary() {
    RunPlan p = direct("sgl-router");
    BuildStage build = p.builds().get(0);
    assertThat(build.steps()).containsExactly(List.of("cargo", "build", "--release", "--manifest-path",
        "/src/sglang/experimental/sgl-router/Cargo.toml", "--bin", "sgl-router"));
    String target = build.env().get("CARGO_TARGET_DIR");
    assertThat(target).startsWith("/scratch/srt-operator/cache/sgl-router/");
    assertThat(p.process("router").argv().get(0)).isEqualTo(target + "/release/sgl-router");
    assertThat(p.process("router").argv()).containsSequence("--policy", "cache_aware");
  }

  @Test
  void prebuiltBinaryIsUsedAsIsOnSlurm() {
    String yaml = Examples.exampleYaml().replace("source: /src/sglang/experimental/sgl-router", "binary: /opt/sgl-router/bin/sgl-router");
    RunPlan p = planOf(yaml, "sgl-router", Mode.SLURM);
    assertThat(p.builds()).isEmpty();
    assertThat(p.process("router").argv().get(0)).isEqualTo("/opt/sgl-router/bin/sgl-router");
    var rc = Examples.parse(yaml).comparisons().get(0);
    assertThat(dev.srt.operator.config.Validator.validate(rc, Examples.cluster(Examples.SLURM_CLUSTER))).noneMatch(Problem::isError);
  }

  /** Upstream: test_direct_arm1_rejects_an_opaque_prebuilt_router. */
  @Test
  void directArm1RejectsAnOpaquePrebuiltRouter() {
    String yaml = Examples.exampleYaml().replace("source: /src/sglang/experimental/sgl-router", "binary: /opt/sgl-router/bin/sgl-router");
    var rc = LoadedResources.parse("inline.yaml", yaml).comparisons().get(0);
    // validate with the direct cluster, and render --mode direct (the mode given, whatever the cluster's).
    for (List<Problem> problems : List.of(dev.srt.operator.config.Validator.validate(rc, Examples.cluster(Examples.DIRECT_CLUSTER)),
        dev.srt.operator.config.Validator.validate(rc, Examples.cluster(Examples.SLURM_CLUSTER), dev.srt.operator.api.Mode.DIRECT))) {
      assertThat(problems).filteredOn(Problem::isError).singleElement().satisfies(e -> {
        assertThat(e.path()).isEqualTo("spec.arms[0].frontend.binary");
        assertThat(e.message()).contains("drop frontend.binary").contains("from source");
      });
    }
  }

  /**
   * Neither source nor binary: the run would start whatever sgl-router is first on the host's
   * PATH, as opaque as a prebuilt one, so a direct host refuses it too; Slurm keeps the PATH router.
   */
  @Test
  void directArm1RejectsARouterFromThePath() {
    String yaml = Examples.exampleYaml().replace("      source: /src/sglang/experimental/sgl-router\n", "");
    var rc = LoadedResources.parse("inline.yaml", yaml).comparisons().get(0);
    assertThat(rc.getSpec().arms.get(0).frontend.source).isNull();
    for (List<Problem> problems : List.of(dev.srt.operator.config.Validator.validate(rc, Examples.cluster(Examples.DIRECT_CLUSTER)),
        dev.srt.operator.config.Validator.validate(rc, Examples.cluster(Examples.SLURM_CLUSTER), dev.srt.operator.api.Mode.DIRECT))) {
      assertThat(problems).filteredOn(Problem::isError).singleElement().satisfies(e -> {
        assertThat(e.path()).isEqualTo("spec.arms[0].frontend.source");
        assertThat(e.message()).startsWith("a direct host builds the router from source in the run")
            .contains("set frontend.source", "whatever sgl-router is on the host's PATH, an opaque router");
      });
    }
    assertThat(dev.srt.operator.config.Validator.validate(rc, Examples.cluster(Examples.SLURM_CLUSTER))).noneMatch(Problem::isError);
  }

  @Test
  void workersLaunchSglangNotDynamo() {
    RunPlan p = direct("sgl-router");
    List<ProcessSpec> workers = p.processes(Role.WORKER);
    assertThat(workers).hasSize(2);
    ProcessSpec w0 = workers.get(0);
    assertThat(w0.argv()).startsWith("python3", "-m", "sglang.launch_server").doesNotContain("--request-plane");
    assertThat(w0.argv()).containsSequence("--kv-events-config", "{\"publisher\":\"zmq\",\"topic\":\"kv-events\",\"endpoint\":\"tcp://*:5200\"}");
    assertThat(workers.get(1).argv()).contains("{\"publisher\":\"zmq\",\"topic\":\"kv-events\",\"endpoint\":\"tcp://*:5201\"}")
        .containsSequence("--port", "6132").containsSequence("--nccl-port", "17501");
    assertThat(w0.env()).containsOnlyKeys("CUDA_VISIBLE_DEVICES").containsEntry("CUDA_VISIBLE_DEVICES", "0,1,2,3");
    assertThat(workers.get(1).env()).containsEntry("CUDA_VISIBLE_DEVICES", "4,5,6,7");
    // The raw router needs nothing from Dynamo: no install, no discovery, no DYN_* env anywhere.
    assertThat(p.facts()).containsEntry("dynamoEnabled", false);
    for (ProcessSpec proc : p.processes()) {
      assertThat(String.join(" ", proc.argv())).doesNotContain("dynamo");
      assertThat(proc.env().keySet()).noneMatch(k -> k.startsWith("DYN_") || k.startsWith("ETCD"));
    }
  }

  @Test
  void dynamoArmCouplesEngineAndSidecar() {
    RunPlan p = direct("dynamo-kv");
    assertThat(p.facts()).containsEntry("dynamoEnabled", true);
    ProcessSpec engine1 = p.process("engine-1");
    ProcessSpec sidecar1 = p.process("sidecar-1");
    assertThat(p.process("engine-0").argv()).containsSequence("--grpc-port", "50051").contains("--incremental-streaming-output");
    assertThat(engine1.argv()).containsSequence("--grpc-port", "50052");
    assertThat(p.process("sidecar-0").argv()).containsExactly("python3", "-m", "dynamo.sglang.sidecar", "--grpc-endpoint", "127.0.0.1:50051");
    assertThat(sidecar1.argv()).containsSequence("--grpc-endpoint", "127.0.0.1:50052");
    assertThat(sidecar1.startAfter()).isEqualTo(Probe.tcp("127.0.0.1:50052"));
    assertThat(engine1.group()).isEqualTo("worker-1").isEqualTo(sidecar1.group());
    assertThat(sidecar1.env()).containsEntry("DYN_EVENT_PLANE", "zmq").containsEntry("DYN_REQUEST_PLANE", "tcp")
        .containsEntry("ETCD_ENDPOINTS", "http://127.0.0.1:2379").containsEntry("DYN_SYSTEM_PORT", "7501")
        .doesNotContainKeys("DYN_DISCOVERY_BACKEND", "NATS_SERVER");
    assertThat(p.processes()).noneMatch(proc -> proc.argv().containsAll(List.of("-m", "dynamo.sglang")));
  }

  @Test
  void withoutSidecarKeepsTheInProcessDynamoWorker() {
    String yaml = Examples.exampleYaml().replace("    dynamo: {sidecar: {enabled: true}}\n", "");
    RunPlan p = planOf(yaml, "dynamo-kv", Mode.DIRECT);
    assertThat(p.processes(Role.SIDECAR)).isEmpty();
    assertThat(p.process("worker-0").argv()).startsWith("python3", "-m", "dynamo.sglang");
    assertThat(p.process("worker-0").env()).containsEntry("DYN_SYSTEM_PORT", "7500");
  }

  @Test
  void policyCatalogRequiresPinnedDynamoRevision() {
    String yaml = Examples.exampleYaml().replace("hash: " + HASH, "version: 0.8.0");
    assertThat(errorsOf(yaml)).anySatisfy(e -> {
      assertThat(e.path()).isEqualTo("spec.arms[2].dynamo.policyCatalog");
      assertThat(e.message()).contains("pinned source build");
    });
  }

  @Test
  void policyCatalogRequiresTheDynamoFrontend() {
    String yaml = Examples.exampleYaml().replace("      args: {policy: cache_aware}\n",
        "      args: {policy: cache_aware}\n    dynamo: {policyCatalog: {path: /src/catalog, package: p}}\n");
    assertThat(errorsOf(yaml)).anySatisfy(e -> {
      assertThat(e.path()).isEqualTo("spec.arms[0].dynamo.policyCatalog");
      assertThat(e.message()).contains("requires frontend.type: dynamo");
    });
  }

  @Test
  void policyCatalogNeedsExactlyOneImmutableSource() {
    String both = Examples.exampleYaml().replace("        rev: " + REV, "        rev: " + REV + "\n        path: /src/catalog");
    assertThat(errorsOf(both)).anySatisfy(e -> assertThat(e.message()).contains("exactly one of git or path"));
    String noRev = Examples.exampleYaml().replace("        rev: " + REV + "\n", "");
    assertThat(errorsOf(noRev)).anySatisfy(e -> {
      assertThat(e.path()).isEqualTo("spec.arms[2].dynamo.policyCatalog.rev");
      assertThat(e.message()).contains("immutable rev");
    });
  }

  @Test
  void policyCatalogPartitionsTheDynamoBuildCache() {
    String plain = (String) direct("dynamo-kv").facts().get("dynamoSourceCacheKey");
    String withCatalog = (String) direct("dynamo-kv-policy").facts().get("dynamoSourceCacheKey");
    assertThat(plain).isEqualTo(HASH);
    assertThat(withCatalog).startsWith(HASH + "-policy-").isNotEqualTo(plain);
    assertThat(slurm("dynamo-kv").builds().get(0).cacheDir()).isEqualTo("/scratch/srt-operator/cache/dynamo/" + HASH);
    assertThat(slurm("dynamo-kv-policy").builds().get(0).cacheDir()).endsWith("/" + withCatalog);
    // A direct host's cache directory also names the platform (machine, Python, CPU), resolved at run time.
    assertThat(direct("dynamo-kv").builds().get(0).cacheDir()).isEqualTo("/scratch/srt-operator/cache/dynamo/" + HASH + "-{{host_tag}}");
    assertThat(direct("dynamo-kv-policy").builds().get(0).cacheDir()).endsWith("/" + withCatalog + "-{{host_tag}}");
    // Any catalog field changes the key.
    String otherRev = Examples.exampleYaml().replace(REV, "a".repeat(40));
    assertThat(planOf(otherRev, "dynamo-kv-policy", Mode.DIRECT).facts().get("dynamoSourceCacheKey")).isNotEqualTo(withCatalog);
  }

  @Test
  void policyCatalogBuildPinsKvRouterToTheSameCheckout() {
    BuildStage build = direct("dynamo-kv-policy").builds().get(0);
    String dir = build.cacheDir() + ".build";
    assertThat(build.steps()).contains(
        List.of("git", "-C", dir + "/policy-catalog", "fetch", "--depth", "1", "--", "origin", REV),
        List.of("git", "-C", dir + "/dynamo", "fetch", "--depth", "1", "--", "origin", HASH),
        List.of("srt_set_toml_dependency", dir + "/policy-catalog/crates/sgl-router-cache-aware/Cargo.toml", "dynamo-kv-router",
            "dynamo-kv-router = { path = \"" + dir + "/dynamo/lib/kv-router\", features = [\"standalone-selection\"] }"),
        List.of("srt_set_toml_dependency", dir + "/dynamo/lib/bindings/python/Cargo.toml", "dynamo-worker-selection-policy-catalog",
            "dynamo-worker-selection-policy-catalog = { package = \"sgl-router-cache-aware-dynamo-policy\", path = \""
                + dir + "/policy-catalog/crates/sgl-router-cache-aware\", optional = true }"));
    // The catalog is materialized and repointed before the wheel is built.
    int repoint = indexOfFirst(build, "srt_set_toml_dependency");
    int maturin = indexOfFirst(build, "srt_in_dir");
    assertThat(repoint).isLessThan(maturin);
  }

  @Test
  void policyCatalogInstallEnablesTheCustomPolicyFeature() {
    RunPlan p = direct("dynamo-kv-policy");
    BuildStage build = p.builds().get(0);
    assertThat(build.steps()).anySatisfy(step -> assertThat(String.join(" ", step))
        .contains("-m maturin build --release --features custom-policy -o " + build.cacheDir()));
    assertThat(build.steps()).anySatisfy(step -> assertThat(step).startsWith("cp").last().isEqualTo(build.cacheDir() + "/worker-selection.yaml"));
    // Into the run's own package directory, which the Dynamo processes find on their PYTHONPATH.
    assertThat(p.builds().get(1).steps()).containsExactly(List.of("srt_pip_install_wheels", "python3", build.cacheDir(), "{{run_dir}}/python"));
    assertThat(p.processes()).filteredOn(q -> q.role() == Role.ROUTER || q.role() == Role.SIDECAR).hasSize(3)
        .allSatisfy(q -> assertThat(q.env()).containsEntry("PYTHONPATH", "python"));
    assertThat(p.processes(Role.ENGINE)).allSatisfy(q -> assertThat(q.env()).doesNotContainKey("PYTHONPATH"));
    // Without a catalog the feature is not enabled.
    assertThat(direct("dynamo-kv").builds().get(0).steps()).noneMatch(step -> step.contains("--features"));
  }

  @Test
  void dynamoFrontendPassesThePublishedPolicyConfig() {
    RunPlan p = direct("dynamo-kv-policy");
    String key = (String) p.facts().get("dynamoSourceCacheKey");
    List<String> argv = p.process("router").argv();
    assertThat(argv).startsWith("python3", "-m", "dynamo.frontend", "--http-port", "8000", "--router-mode", "kv");
    assertThat(argv).endsWith("--router-policy-config", "/scratch/srt-operator/cache/dynamo/" + key + "-{{host_tag}}/worker-selection.yaml");
    assertThat(p.facts().get("dynamoPolicyConfigPath")).isEqualTo(argv.get(argv.size() - 1));
    // On Slurm the published config sits at <source_cache_key>/worker-selection.yaml, as the contract asserts.
    assertThat(slurm("dynamo-kv-policy").process("router").argv()).last().asString().endsWith("/" + key + "/worker-selection.yaml");
  }

  @Test
  void explicitRouterPolicyConfigWinsOverTheDerivedPath() {
    String yaml = Examples.exampleYaml().replace("      sidecar: {enabled: true}\n      policyCatalog:",
        "      sidecar: {enabled: true}\n      policyCatalog:").replaceFirst(
        "(- name: dynamo-kv-policy\n    frontend: \\{type: dynamo, args: \\{router-mode: kv)\\}",
        "$1, router-policy-config: /configs/mine.yaml}");
    List<String> argv = planOf(yaml, "dynamo-kv-policy", Mode.DIRECT).process("router").argv();
    assertThat(argv).containsSequence("--router-policy-config", "/configs/mine.yaml");
    assertThat(argv.stream().filter(a -> a.equals("--router-policy-config"))).hasSize(1);
  }

  @Test
  void arm3PlumbsTheCatalogAndItsPolicyConfig() {
    @SuppressWarnings("unchecked")
    Map<String, Object> catalog = (Map<String, Object>) direct("dynamo-kv-policy").facts().get("dynamoPolicyCatalog");
    assertThat(catalog).containsEntry("package", "sgl-router-cache-aware-dynamo-policy").containsEntry("rev", REV)
        .containsEntry("features", List.of("custom-policy")).containsEntry("config", "worker-selection.yaml");
  }

  @Test
  void arm2AndArm3DifferOnlyInWorkerSelection() {
    for (Mode mode : Mode.values()) {
      for (java.nio.file.Path example : List.of(Examples.COMPARISON, Examples.DISAGG)) {
        arm2AndArm3DifferOnlyInWorkerSelection(Examples.plan(example, "dynamo-kv", mode), Examples.plan(example, "dynamo-kv-policy", mode));
      }
    }
  }

  /** Also rendered: the lines that start the workers are byte-identical in the two scripts. */
  private static void arm2AndArm3DifferOnlyInWorkerSelection(RunPlan arm2, RunPlan arm3) {
    assertThat(workerLines(arm2)).isNotEmpty().isEqualTo(workerLines(arm3));
    assertThat(arm2.workerProcesses()).isNotEmpty().isEqualTo(arm3.workerProcesses());
    assertThat(arm2.gates()).isEqualTo(arm3.gates());
    assertThat(arm2.processes(Role.BENCHMARK)).isEqualTo(arm3.processes(Role.BENCHMARK));
    assertThat(arm2.facts().get("dynamoPolicyCatalog")).isNull();
    assertThat(arm3.facts().get("dynamoPolicyCatalog")).isNotNull();
    assertThat(arm2.process("router").argv()).doesNotContain("--router-policy-config");
    assertThat(arm3.process("router").argv()).contains("--router-policy-config");
  }

  private static List<String> workerLines(RunPlan plan) {
    return dev.srt.operator.render.Scripts.render(plan).lines().filter(l -> l.startsWith("srt_start worker-")).toList();
  }

  @Test
  void dynamoTraceEnvOnlyWhereDynamoRuns() {
    assertThat(direct("dynamo-kv").process("router").env()).containsEntry("DYN_REQUEST_TRACE", "1");
    assertThat(direct("dynamo-kv").process("engine-0").env()).doesNotContainKey("DYN_LOGGING_SPAN_EVENTS");
    assertThat(direct("dynamo-kv").process("sidecar-0").env()).containsEntry("DYN_LOGGING_SPAN_EVENTS", "true");
    String off = Examples.exampleYaml().replace("observability: {enabled: true}", "observability: {enabled: false}");
    assertThat(planOf(off, "dynamo-kv", Mode.DIRECT).process("router").env()).doesNotContainKey("DYN_REQUEST_TRACE");
  }

  @Test
  void benchmarkIsIdenticalInEveryArmAndAimsAtTheChatEndpoint() {
    ProcessSpec bench = direct("sgl-router").processes(Role.BENCHMARK).get(0);
    assertThat(bench.argv()).startsWith("python3", "-m", "sglang.benchmark.serving")
        .containsSequence("--base-url", "http://127.0.0.1:8000").containsSequence("--seed", "42")
        .containsSequence("--backend", "sglang-oai-chat").containsSequence("--output-file", "results/bench-serving.jsonl");
    assertThat(direct("dynamo-kv").processes(Role.BENCHMARK).get(0)).isEqualTo(bench);
  }

  @Test
  void portsFollowTheContractTable() {
    Topology t = direct("dynamo-kv").topology();
    assertThat(t.workers()).extracting(WorkerSlot::ports).containsExactly(
        new PortMap(6100, 5200, 7500, 17500, 50051), new PortMap(6132, 5201, 7501, 17501, 50052));
    assertThat(t.workers()).extracting(WorkerSlot::gpus).containsExactly(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7));
  }

  private static int indexOfFirst(BuildStage build, String word) {
    for (int i = 0; i < build.steps().size(); i++) {
      if (build.steps().get(i).get(0).equals(word)) {
        return i;
      }
    }
    return -1;
  }
}
