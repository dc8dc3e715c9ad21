package dev.srt.operator.plan.frontends;

import dev.srt.operator.api.FrontendSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.config.Echo;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.config.FlagVocabulary;
import dev.srt.operator.config.PortTable;
import dev.srt.operator.config.Problem;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The SGLang Model Gateway ({@code python3 -m sglang_router.launch_router}, the PyPI
 * {@code sglang-router} package, srtctl's {@code frontend.type: sglang}) over the same static
 * pool of native SGLang workers as sgl-router. Its {@code cache_aware} policy keeps an approximate
 * prefix tree of the request text it routed and reads no KV events: the workers publish theirs as
 * {@code spec.backend.kvEvents} says (for the other arms), and nothing here depends on them. Its
 * Prometheus metrics are on a listener of their own, {@link #METRICS_PORT}.
 */
public final class SglModelGatewayFrontend implements Frontend {
  public static final String TYPE = "sgl-model-gateway";
  public static final String MODULE = "sglang_router.launch_router";
  /** The PyPI distribution {@link #MODULE} comes from. */
  public static final String DISTRIBUTION = "sglang-router";
  /** Its flag list: sgl-project/sglang sgl-model-gateway/bindings/python/.../router_args.py. */
  public static final String FLAGS = "sglang-router-launch-router";
  /** The gateway's own default Prometheus port, set explicitly so that the port table holds it. */
  public static final int METRICS_PORT = 29000;
  /** Flags srt-operator sets itself. */
  public static final Set<String> MANAGED_ARGS = Set.of("worker-urls", "host", "port", "prometheus-port");
  /**
   * Other ways to find workers or split them, which would leave the planned static pool unused.
   */
  static final Set<String> OTHER_DISCOVERY = Set.of("service-discovery", "pd-disaggregation", "prefill", "decode");
  /** {@code --policy} choices of the pinned router_args.py (default cache_aware). */
  public static final List<String> POLICIES = List.of("random", "round_robin", "cache_aware", "power_of_two", "manual");
  static final String READINESS_PATH = "/readiness";

  @Override
  public String type() {
    return TYPE;
  }

  /**
   * None: srt-operator plans it over the topology's --worker-urls, not its --pd-disaggregation
   * form, and its cache_aware policy reads no KV events.
   */
  @Override
  public Set<Capability> capabilities() {
    return Set.of();
  }

  @Override
  public RouterProgram routerProgram() {
    return RouterProgram.module(MODULE);
  }

  @Override
  public Set<String> managedArgs() {
    return MANAGED_ARGS;
  }

  @Override
  public String flagList() {
    return FLAGS;
  }

  @Override
  public String routerName() {
    return "the Model Gateway";
  }

  /** srtctl's {@code frontend.type: sglang}: python -m sglang_router.launch_router. */
  @Override
  public String srtctlType() {
    return "sglang";
  }

  @Override
  public String srtctlDescription() {
    return "the SGLang Model Gateway";
  }

  @Override
  public List<PortTable.Block> routerPorts() {
    return List.of(new PortTable.Block("Model Gateway Prometheus port", METRICS_PORT, METRICS_PORT));
  }

  /** Its flags, the static pool it routes, and a policy it has. */
  @Override
  public void check(List<Problem> out, String p, FrontendSpec f, RouterComparisonSpec spec, boolean disaggregated) {
    StaticWorkerPool.requireSglang(out, p, TYPE, spec);
    if (f.args != null) {
      f.args.keySet().stream().filter(k -> OTHER_DISCOVERY.contains(Flags.normalize(k))
              || OTHER_DISCOVERY.contains(String.valueOf(FlagVocabulary.option(FLAGS, k)))).forEach(k -> out.add(Problem.error(
          FieldPath.field(p + ".args", k), "--" + Flags.normalize(k) + " would replace the static --worker-urls pool that srt-operator "
              + "plans from spec.resources")));
    }
    String policy = Flags.get(f.args, "policy");
    if (policy != null && !POLICIES.contains(policy)) {
      String written = f.args.keySet().stream().filter(k -> Flags.normalize(k).equals("policy")).findFirst().orElseThrow();
      out.add(Problem.error(FieldPath.field(p + ".args", written), Echo.value(policy)
          + " is not a policy of the Model Gateway; its policies are " + String.join(", ", POLICIES)));
    }
  }

  @Override
  public List<BuildStage> builds(ArmContext ctx) {
    return List.of();
  }

  @Override
  public List<ProcessSpec> workers(ArmContext ctx) {
    return StaticWorkerPool.workers(ctx);
  }

  @Override
  public ProcessSpec router(ArmContext ctx) {
    FrontendSpec f = ctx.arm().frontend;
    List<String> argv = new ArrayList<>(List.of(ctx.python(), "-m", MODULE));
    argv.addAll(StaticWorkerPool.workerUrlsFlag(ctx));
    argv.addAll(List.of("--host", "0.0.0.0", "--port", String.valueOf(PortMap.ROUTER),
        "--prometheus-port", String.valueOf(METRICS_PORT)));
    argv.addAll(Flags.render(f.args, MANAGED_ARGS));
    Map<String, Integer> ports = new LinkedHashMap<>();
    ports.put("http", PortMap.ROUTER);
    ports.put("metrics", METRICS_PORT);
    // It registers --worker-urls at start-up and gives up on one after --worker-startup-timeout-secs:
    // it starts once every worker is healthy, as sgl-router does.
    return new ProcessSpec("router", Role.ROUTER, 0, argv, new TreeMap<>(f.env == null ? Map.of() : f.env),
        ports, null, SglangEngine.logOf("router"), readiness(ctx), null, null).startingAfter(Gates.WORKERS_HEALTH)
        .serving(server(ctx));
  }

  @Override
  public List<Gate> readiness(ArmContext ctx, List<ProcessSpec> workers) {
    // /readiness answers 200 once one worker is healthy in the gateway: the workers gate comes first.
    return List.of(Gates.workersHealth(workers), new Gate(Gates.ROUTER_READY,
        List.of(new Gate.Check("router", Role.ROUTER, readiness(ctx)))));
  }

  private static Probe readiness(ArmContext ctx) {
    return Probe.httpStatus(server(ctx).healthUrl(), 200);
  }

  /** Its Prometheus text is on its own port. */
  private static Endpoint server(ArmContext ctx) {
    return ctx.routerEndpoint(READINESS_PATH).withMetricsOn(METRICS_PORT);
  }

  /** The gateway is the cluster's {@code sglang-router} distribution. */
  @Override
  public FactCapture.Router routerFacts(ArmContext ctx) {
    return new FactCapture.Router(TYPE, null, List.of(), List.of(DISTRIBUTION), null, null, null)
        .withFiles(java.util.Arrays.asList(Flags.get(ctx.arm().frontend.args, "tokenizer-path")));
  }

  @Override
  public Map<String, Object> facts(ArmContext ctx) {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("dynamoEnabled", false);
    facts.put("routerHealthPath", READINESS_PATH);
    facts.put("routerMetricsUrl", server(ctx).metricsUrl());
    facts.put("workerHealthUrls", ctx.topology().workers().stream().map(w -> ctx.workerEndpoint(w).healthUrl()).toList());
    facts.put("routerReadsKvEvents", false);
    return facts;
  }
}
