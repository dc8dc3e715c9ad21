package dev.srt.operator.plan.frontends;

import dev.srt.operator.config.Echo;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.config.KvEventRules;
import dev.srt.operator.config.Rules;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.FlagVocabulary;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.FrontendSpec;
import dev.srt.operator.plan.ArmContext;
import dev.srt.operator.plan.BuildStage;
import dev.srt.operator.plan.FactCapture;
import dev.srt.operator.plan.Flags;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.plan.Gates;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.plan.PortMap;
import dev.srt.operator.plan.Endpoint;
import dev.srt.operator.plan.Probe;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.SglangEngine;
import java.util.ArrayList;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SGLang's experimental Rust router over a static pool of native SGLang workers. No Dynamo, no
 * etcd or NATS: the router learns each worker's KV-event publisher from its /server_info.
 */
public final class SglRouterFrontend implements Frontend {
  public static final String TYPE = "sgl-router";
  /** The router's program on PATH when the arm names neither a binary nor a source. */
  static final String BINARY = "sgl-router";
  /** The router's flags srt-operator sets itself; model-id and tokenizer-path may be overridden. */
  public static final Set<String> MANAGED_ARGS = Set.of("worker-urls", "host", "port");
  public static final String BUILD_STAGE = "sgl-router-build";
  /**
   * The {@code --policy} values of the experimental router: those of the pinned source
   * (sgl-project/sglang experimental/sgl-router/src/config/types.rs {@code PolicyKind} @ 03473357,
   * the build flags/sgl-router.txt is from), then the two only earlier builds accept
   * ({@code cache_aware_zmq} era: {@code power_of_two} and {@code cache_aware_zmq}, the contract's
   * arm 1).
   */
  public static final List<String> POLICIES = List.of("round_robin", "random", "power_of_n", "load_based", "fused_score",
      "score_policy", "session_aware", "cache_aware", "sticky", "power_of_two", "cache_aware_zmq");
  /** Policies that route on the KV events of the workers (fused and score policies: by their prefix_cache term). */
  static final List<String> KV_AWARE_POLICIES = List.of("cache_aware", "cache_aware_zmq");
  static final List<String> SCORING_POLICIES = List.of("fused_score", "score_policy");

  @Override
  public String type() {
    return TYPE;
  }

  /**
   * Its static --worker-urls discovery has no prefill/decode split; some policies read the
   * workers' KV events; the arm names its binary or builds it from source.
   */
  @Override
  public Set<Capability> capabilities() {
    return Set.of(Capability.KV_EVENTS, Capability.ROUTER_BUILD);
  }

  @Override
  public RouterProgram routerProgram() {
    return RouterProgram.binary(BINARY);
  }

  @Override
  public Set<String> managedArgs() {
    return MANAGED_ARGS;
  }

  @Override
  public String flagList() {
    return FlagVocabulary.SGL_ROUTER;
  }

  @Override
  public String routerName() {
    return "sgl-router";
  }
  /** The MANAGED flags, the router binary or source, and what sgl-router needs of the spec. */
  @Override
  public void check(List<Problem> out, String p, FrontendSpec f, RouterComparisonSpec spec, boolean disaggregated) {
    StaticWorkerPool.requireSglang(out, p, TYPE, spec);
    if (f.binary != null && f.source != null) {
      out.add(Problem.error(p + ".source", "set at most one of binary and source"));
    }
    Rules.requireAbsolute(out, p + ".binary", f.binary, false);
    if (f.binary != null && f.binary.contains("=")) {
      out.add(Problem.error(p + ".binary", "must not contain '='"));
    }
    Rules.requireAbsolute(out, p + ".source", f.source, false);
    policy(out, p + ".args", f.args, spec);
  }

  /**
   * The router rejects an unknown {@code --policy} only once it starts, after the build and the
   * workers; and it defaults to round_robin, so a KV-aware policy is the one to check for events.
   */
  private static void policy(List<Problem> out, String p, Map<String, Object> args, RouterComparisonSpec spec) {
    String policy = Flags.get(args, "policy");
    if (policy == null) {
      return;
    }
    String written = args.keySet().stream().filter(k -> Flags.normalize(k).equals("policy")).findFirst().orElseThrow();
    if (!POLICIES.contains(policy)) {
      out.add(Problem.error(FieldPath.field(p, written), Echo.value(policy)
          + " is not a policy of sgl-router; its policies are " + String.join(", ", POLICIES)
          + " (power_of_two and cache_aware_zmq in earlier builds only)"));
      return;
    }
    String fuse = Flags.get(args, "fuse");
    boolean prefixTerm = SCORING_POLICIES.contains(policy) && (fuse == null || fuse.contains("prefix_cache"));
    if (KV_AWARE_POLICIES.contains(policy) || prefixTerm) {
      KvEventRules.requirePublished(out, p, args, "policy", "policy " + policy, spec);
    }
  }


  @Override
  public List<BuildStage> builds(ArmContext ctx) {
    FrontendSpec f = ctx.arm().frontend;
    if (f.source == null) {
      return List.of();
    }
    // The build output goes under workDir: the source tree may be read-only or shared by workers.
    return List.of(new BuildStage(BUILD_STAGE, null,
        List.of(List.of("cargo", "build", "--release", "--manifest-path", f.source + "/Cargo.toml", "--bin", "sgl-router")),
        Map.of("CARGO_TARGET_DIR", targetDir(ctx))));
  }

  @Override
  public List<ProcessSpec> workers(ArmContext ctx) {
    return StaticWorkerPool.workers(ctx);
  }

  @Override
  public ProcessSpec router(ArmContext ctx) {
    FrontendSpec f = ctx.arm().frontend;
    List<String> argv = new ArrayList<>();
    argv.add(executable(ctx));
    argv.addAll(StaticWorkerPool.workerUrlsFlag(ctx));
    argv.addAll(List.of("--host", "0.0.0.0", "--port", String.valueOf(PortMap.ROUTER)));
    argv.addAll(managedModelArgs(ctx));
    argv.addAll(Flags.render(f.args, MANAGED_ARGS));
    // --worker-urls are registered once, at start-up, from each worker's /server_info: a worker
    // that does not serve it yet stays invisible on older builds (sgl-project/sglang#27980), so
    // the router starts once every worker is healthy.
    return new ProcessSpec("router", Role.ROUTER, 0, argv, new TreeMap<>(f.env == null ? Map.of() : f.env),
        Map.of("http", PortMap.ROUTER), null, SglangEngine.logOf("router"),
        Probe.httpStatus(server(ctx).healthUrl(), 200), null, null).startingAfter(Gates.WORKERS_HEALTH).serving(server(ctx));
  }

  /** sgl-router's /readyz answers 200 once one worker has registered: the workers' own gate comes first. */
  private static Endpoint server(ArmContext ctx) {
    return ctx.routerEndpoint("/readyz");
  }

  /** The tokenizer the router loads: the arm's {@code tokenizer-path}, else the one it is given. */
  static List<String> tokenizerFiles(ArmContext ctx) {
    String given = Flags.get(ctx.arm().frontend.args, "tokenizer-path");
    return List.of(given != null ? given : ctx.tokenizerPath());
  }

  /** {@code --model-id} and {@code --tokenizer-path}, each unless the arm sets it explicitly. */
  public static List<String> managedModelArgs(ArmContext ctx) {
    Map<String, Object> args = ctx.arm().frontend.args;
    List<String> out = new ArrayList<>();
    if (!Flags.has(args, "model-id")) {
      out.addAll(List.of("--model-id", ctx.servedModelName()));
    }
    if (!Flags.has(args, "tokenizer-path")) {
      // A bare model directory is rejected by the router's tokenizer loader.
      out.addAll(List.of("--tokenizer-path", ctx.tokenizerPath()));
    }
    return out;
  }

  @Override
  public List<Gate> readiness(ArmContext ctx, List<ProcessSpec> workers) {
    // /readyz is a bare status code: 200 once one worker registered, hence the workers gate first.
    return List.of(Gates.workersHealth(workers), new Gate(Gates.ROUTER_READY,
        List.of(new Gate.Check("router", Role.ROUTER, Probe.httpStatus(server(ctx).healthUrl(), 200)))));
  }

  @Override
  public Map<String, Object> facts(ArmContext ctx) {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("dynamoEnabled", false);
    facts.put("routerHealthPath", "/readyz");
    facts.put("workerHealthUrls", ctx.topology().workers().stream().map(w -> ctx.workerEndpoint(w).healthUrl()).toList());
    facts.put("sglRouterBinary", executable(ctx));
    return facts;
  }

  /** The router binary: hashed, and asked for its --version. */
  @Override
  public FactCapture.Router routerFacts(ArmContext ctx) {
    return new FactCapture.Router(TYPE, executable(ctx), List.of(), List.of(), null, null, null).withFiles(tokenizerFiles(ctx));
  }

  static String executable(ArmContext ctx) {
    FrontendSpec f = ctx.arm().frontend;
    if (f.binary != null) {
      return f.binary;
    }
    return f.source != null ? targetDir(ctx) + "/release/sgl-router" : BINARY;
  }

  static String targetDir(ArmContext ctx) {
    return ctx.cacheDir("sgl-router", Hashes.sha256(ctx.arm().frontend.source).substring(0, 12), "target");
  }
}
