package dev.srt.operator.plan.frontends;

import dev.srt.operator.config.Echo;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.config.KvEventRules;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.FlagVocabulary;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.FrontendSpec;
import dev.srt.operator.plan.ArmContext;
import dev.srt.operator.plan.BuildStage;
import dev.srt.operator.plan.FactCapture;
import dev.srt.operator.plan.Flags;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.plan.Gates;
import dev.srt.operator.plan.PortMap;
import dev.srt.operator.plan.Endpoint;
import dev.srt.operator.plan.Probe;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.SglangEngine;
import dev.srt.operator.plan.WorkerRole;
import dev.srt.operator.plan.WorkerSlot;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code python3 -m dynamo.frontend} over SGLang workers: native engines coupled to Dynamo
 * sidecars, or the in-process {@code dynamo.sglang} worker. Discovery is etcd (or a file store in
 * the run directory), and NATS runs when a plane uses it: {@link DynamoInfra}.
 */
public final class DynamoFrontend implements Frontend {
  /** The frontend's /health answers before any worker registered: its gate counts generate instances there. */
  private static final java.util.function.Function<ArmContext, Endpoint> SERVER = ctx -> ctx.routerEndpoint("/health");

  public static final String TYPE = "dynamo";
  /** The frontend's flags srt-operator sets itself. */
  public static final Set<String> MANAGED_ARGS = Set.of("http-port", "http-host");
  public static final String DISCOVERY_DIR = DynamoInfra.DISCOVERY_DIR;
  /**
   * The {@code --router-mode} values of the pinned frontend: the {@code choices} of
   * ai-dynamo/dynamo components/src/dynamo/common/configuration/groups/router_args.py @ 028cab44,
   * the version config/flags/dynamo-frontend.txt lists (Dynamo 1.x; its docs' frontend
   * configuration page names round-robin, random, kv and direct). argparse refuses any other value,
   * but only once the run has installed Dynamo and started the workers.
   */
  public static final List<String> ROUTER_MODES = List.of("round-robin", "random", "power-of-two", "kv", "direct", "least-loaded",
      "device-aware-weighted");
  static final String SGLANG_RUST_BUILD_MODE = "SGLANG_RUST_BUILD_MODE";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Set<Capability> capabilities() {
    return Set.of(Capability.PREFILL_DECODE, Capability.POLICY_CATALOG, Capability.SIDECARS, Capability.KV_EVENTS);
  }

  @Override
  public Set<String> managedArgs() {
    return MANAGED_ARGS;
  }

  @Override
  public String flagList() {
    return FlagVocabulary.DYNAMO_FRONTEND;
  }

  @Override
  public String routerName() {
    return "the Dynamo frontend";
  }

  /** Installed by the run from spec.dynamo, never a binary of the arm's. */
  @Override
  public RouterProgram routerProgram() {
    return RouterProgram.module("dynamo.frontend");
  }
  /** The Dynamo frontend's flags and what it needs of the spec: a Dynamo install, no router binary. */
  @Override
  public void check(List<Problem> out, String p, FrontendSpec f, RouterComparisonSpec spec, boolean disaggregated) {
    if (spec.dynamo == null) {
      out.add(Problem.error("spec.dynamo", "is required by arms with frontend.type: dynamo (set version, hash or wheel)"));
    }
    String mode = Flags.get(f.args, "router-mode");
    if (mode != null && !ROUTER_MODES.contains(mode)) {
      String written = f.args.keySet().stream().filter(k -> Flags.normalize(k).equals("router-mode")).findFirst().orElseThrow();
      out.add(Problem.error(FieldPath.field(p + ".args", written), Echo.value(mode) + " is not a router mode of the Dynamo frontend; "
          + "its modes are " + String.join(", ", ROUTER_MODES)));
      return;
    }
    // KV mode without events (--no-router-kv-events) is Dynamo's approximate mode: it needs none.
    if ("kv".equals(mode) && !"false".equals(Flags.get(f.args, "router-kv-events"))
        && !Flags.has(f.args, "no-router-kv-events")) {
      KvEventRules.requirePublished(out, p + ".args", f.args, "router-mode", "router-mode kv", spec);
    }
  }


  @Override
  public List<BuildStage> builds(ArmContext ctx) {
    return DynamoInstall.stages(ctx);
  }

  @Override
  public List<ProcessSpec> infra(ArmContext ctx) {
    return DynamoInfra.processes(ctx);
  }

  @Override
  public List<dev.srt.operator.plan.RunPlan.Preflight> preflight(ArmContext ctx) {
    return DynamoInfra.preflight(ctx);
  }

  @Override
  public List<ProcessSpec> workers(ArmContext ctx) {
    boolean sidecar = ctx.arm().dynamo != null && ctx.arm().dynamo.sidecarEnabled();
    List<ProcessSpec> out = new ArrayList<>();
    for (WorkerSlot w : ctx.topology().workers()) {
      if (!sidecar) {
        // The in-process Dynamo worker serves no SGLang HTTP API: its health and metrics are on the system port.
        Endpoint server = Endpoint.http(ctx.nodeHost(w.node()), w.ports().system());
        Map<String, String> env = SglangEngine.env(ctx, w);
        env.putAll(runtimeEnv(ctx));
        env.put("DYN_SYSTEM_PORT", String.valueOf(w.ports().system()));
        env.putAll(traceEnv(ctx, false));
        out.add(new ProcessSpec(w.name(), Role.WORKER, w.node(), SglangEngine.argv(ctx, w, "dynamo.sglang", false), env,
            ports(w, false), w.gpus(), SglangEngine.logOf(w.name()), Probe.httpStatus(server.healthUrl(), 200), null, null)
            .serving(server));
        out.addAll(SglangEngine.followers(ctx, w, w.name(), Role.WORKER, "dynamo.sglang", env));
        continue;
      }
      // The native engine is not a Dynamo process: it gets no DYN_* env. As srt-slurm (#443), it
      // does not build SGLang's Rust extension at start-up unless backend.env says otherwise.
      Map<String, String> engineEnv = SglangEngine.env(ctx, w);
      engineEnv.putIfAbsent(SGLANG_RUST_BUILD_MODE, "never");
      String engine = w.process("engine");
      String sidecarName = w.process("sidecar");
      Endpoint server = ctx.workerEndpoint(w).withGrpc(w.ports().grpc());
      out.add(new ProcessSpec(engine, Role.ENGINE, w.node(), SglangEngine.argv(ctx, w, SglangEngine.MODULE, true),
          engineEnv, ports(w, true), w.gpus(), SglangEngine.logOf(engine), Probe.httpStatus(server.healthUrl(), 200), w.name(), null)
          .serving(server));
      List<String> argv = new ArrayList<>(List.of(ctx.python(), "-m", "dynamo.sglang.sidecar",
          "--grpc-endpoint", "127.0.0.1:" + w.ports().grpc()));
      if (w.role() == WorkerRole.PREFILL) {
        // The engine listens on 0.0.0.0, which Dynamo's sidecar cannot advertise: decode workers
        // reach the prefill engine's bootstrap server at its node's address.
        argv.addAll(List.of("--bootstrap-host", ctx.nodeHost(w.node())));
      }
      argv.addAll(ctx.arm().dynamo.sidecar.args == null ? List.of() : ctx.arm().dynamo.sidecar.args);
      Map<String, String> sidecarEnv = new LinkedHashMap<>(runtimeEnv(ctx));
      sidecarEnv.put("DYN_SYSTEM_PORT", String.valueOf(w.ports().system()));
      sidecarEnv.putAll(traceEnv(ctx, false));
      out.add(new ProcessSpec(sidecarName, Role.SIDECAR, w.node(), argv, sidecarEnv,
          Map.of("system", w.ports().system()), null, SglangEngine.logOf(sidecarName),
          null, w.name(), Probe.tcp("127.0.0.1:" + w.ports().grpc())));
      // Followers run the engine only: the leader's sidecar speaks for the whole worker.
      out.addAll(SglangEngine.followers(ctx, w, engine, Role.ENGINE, SglangEngine.MODULE, engineEnv));
    }
    return out;
  }

  @Override
  public ProcessSpec router(ArmContext ctx) {
    FrontendSpec f = ctx.arm().frontend;
    List<String> argv = new ArrayList<>(List.of(ctx.python(), "-m", routerProgram().name(), "--http-port", String.valueOf(PortMap.ROUTER)));
    argv.addAll(Flags.render(f.args, MANAGED_ARGS));
    String policy = DynamoInstall.policyConfigPath(ctx);
    if (policy != null && !Flags.has(f.args, "router-policy-config")) {
      argv.addAll(List.of("--router-policy-config", policy));
    }
    Map<String, String> env = new LinkedHashMap<>(runtimeEnv(ctx));
    env.putAll(traceEnv(ctx, true));
    env.putAll(new TreeMap<>(f.env == null ? Map.of() : f.env));
    return new ProcessSpec("router", Role.ROUTER, 0, argv, env, Map.of("http", PortMap.ROUTER), null,
        SglangEngine.logOf("router"), Probe.dynamoInstances(SERVER.apply(ctx).healthUrl(), generateWorkers(ctx)),
        null, null).serving(SERVER.apply(ctx));
  }

  @Override
  public List<Gate> readiness(ArmContext ctx, List<ProcessSpec> workers) {
    // /health answers 200 before any worker registered; count generate instances instead, then ask
    // whether the model is routable (it can be listed before its generate endpoint is).
    // A prefill/decode topology counts its prefill instances apart: the frontend routes through a
    // prefill worker only once one has registered, and would otherwise serve decode-only.
    String model = URLEncoder.encode(ctx.servedModelName(), StandardCharsets.UTF_8).replace("+", "%20");
    List<Gate.Check> checks = new ArrayList<>();
    checks.add(new Gate.Check("router", Role.ROUTER, Probe.dynamoInstances(SERVER.apply(ctx).healthUrl(), generateWorkers(ctx))));
    int prefill = Gates.count(ctx.topology(), WorkerRole.PREFILL);
    if (prefill > 0) {
      checks.add(new Gate.Check("router", Role.ROUTER, Probe.dynamoPrefillInstances(SERVER.apply(ctx).healthUrl(), prefill)));
    }
    checks.add(new Gate.Check("router", Role.ROUTER, Probe.jsonTrue(ctx.routerUrl() + "/v1/models/" + model + "/ready", "ready")));
    return List.of(Gates.workersHealth(workers), new Gate(Gates.ROUTER_READY, checks));
  }

  /** The workers that register a generate endpoint outside the prefill component: all but prefill ones. */
  private static int generateWorkers(ArmContext ctx) {
    return ctx.topology().workers().size() - Gates.count(ctx.topology(), WorkerRole.PREFILL);
  }

  @Override
  public Map<String, Object> facts(ArmContext ctx) {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("dynamoEnabled", true);
    facts.put("dynamoSourceCacheKey", DynamoInstall.cacheKey(ctx));
    facts.put("dynamoPolicyCatalog", DynamoInstall.catalog(ctx) == null ? null : catalogFact(ctx));
    facts.put("dynamoPolicyConfigPath", DynamoInstall.policyConfigPath(ctx));
    facts.put("sidecar", ctx.arm().dynamo != null && ctx.arm().dynamo.sidecarEnabled());
    facts.put("dynamoDiscovery", ctx.spec().dynamo.discoveryOrDefault());
    facts.put("dynamoEventPlane", ctx.spec().dynamo.eventPlaneOrDefault());
    return facts;
  }

  /**
   * Dynamo as the run installed it: the wheels it installed (a given wheel, or the cached build's),
   * the versions its Python finds with the run's own install in front, and the policy catalog.
   */
  @Override
  public FactCapture.Router routerFacts(ArmContext ctx) {
    DynamoSpec d = ctx.spec().dynamo;
    List<String> wheels = !d.installOrDefault() || d.version != null ? List.of()
        : d.wheel != null ? List.of(d.wheel) : List.of(DynamoInstall.cacheDir(ctx));
    var catalog = DynamoInstall.catalog(ctx);
    return new FactCapture.Router(TYPE, null, wheels, DynamoInstall.DISTRIBUTIONS,
        runtimeEnv(ctx).get("PYTHONPATH"), catalog == null ? null : catalog.rev, catalog == null ? null : catalog.path)
        .withFiles(java.util.Arrays.asList(Flags.get(ctx.arm().frontend.args, "router-policy-config")));
  }

  private static Map<String, Object> catalogFact(ArmContext ctx) {
    var c = DynamoInstall.catalog(ctx);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("git", c.git);
    m.put("path", c.path);
    m.put("rev", c.rev);
    m.put("crateSubdir", c.crateSubdir);
    m.put("package", c.packageName);
    m.put("config", DynamoInstall.configName(c));
    m.put("features", DynamoInstall.features(c));
    return m;
  }

  /** Dynamo runtime settings shared by the frontend and every Dynamo worker process. */
  static Map<String, String> runtimeEnv(ArmContext ctx) {
    DynamoSpec d = ctx.spec().dynamo;
    Map<String, String> env = new LinkedHashMap<>();
    // The run's own Dynamo install first, then whatever the cluster puts on PYTHONPATH; with
    // install: false the host's Dynamo is found without help.
    String clusterPath = ctx.cluster().env == null ? null : ctx.cluster().env.get("PYTHONPATH");
    if (d.installOrDefault()) {
      env.put("PYTHONPATH", clusterPath == null || clusterPath.isEmpty() ? DynamoInstall.PYTHONPATH : DynamoInstall.PYTHONPATH + ":" + clusterPath);
    }
    env.putAll(DynamoInfra.env(ctx));
    env.put("DYN_REQUEST_PLANE", d.requestPlane == null ? "tcp" : d.requestPlane);
    // Always the plane the plan means (and records as dynamoEventPlane, and starts NATS for):
    // Dynamo's own default moved. At 1.6.1 an unset DYN_EVENT_PLANE is ZMQ for every discovery
    // backend (ai-dynamo 1.6.1 wheel, dynamo/frontend/frontend_args.py, --event-plane help; run
    // for real, the frontend logs "Using direct-ZMQ KV event ingress" and ignores NATS-published
    // workers), where earlier releases used NATS with etcd; left unset, an etcd arm would start
    // nats-server for nothing and report a plane it does not use.
    env.put("DYN_EVENT_PLANE", d.eventPlaneOrDefault());
    return env;
  }

  /** Dynamo span and request-trace env: only Dynamo processes write these traces. */
  static Map<String, String> traceEnv(ArmContext ctx, boolean frontend) {
    Map<String, String> env = new LinkedHashMap<>();
    if (!ctx.observability()) {
      return env;
    }
    env.put("DYN_LOGGING_SPAN_EVENTS", "true");
    env.put("DYN_LOGGING_JSONL", "true");
    if (frontend) {
      env.put("DYN_REQUEST_TRACE", "1");
      env.put("DYN_REQUEST_TRACE_FILE_PATH", "logs/dynamo-request-trace");
    }
    return env;
  }

  private static Map<String, Integer> ports(WorkerSlot w, boolean grpc) {
    Map<String, Integer> ports = new LinkedHashMap<>();
    ports.put("http", w.ports().http());
    ports.put("kvEvents", w.ports().kvEvents());
    ports.put("nccl", w.ports().nccl());
    ports.put(grpc ? "grpc" : "system", grpc ? w.ports().grpc() : w.ports().system());
    if (w.ports().bootstrap() != null) {
      ports.put("bootstrap", w.ports().bootstrap());
    }
    return ports;
  }
}
