package dev.srt.operator.config;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.BackendSpec;
import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.FrontendSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.PolicyCatalogSpec;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.SshSpec;
import dev.srt.operator.api.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The semantic rules of both kinds, all problems at once, each with its field path. The same rules
 * are CEL {@code x-kubernetes-validations} on the CRDs where CEL can express them; this class also
 * runs in the operator because not every API server (nor the test mock) enforces CEL, and it adds
 * the rules that need both resources (does the topology fit the cluster?).
 */
public final class Validator {
  public static final Set<String> FRONTEND_TYPES = Set.of("sgl-router", "dynamo");
  public static final Set<String> WORKLOAD_TOOLS = Set.of("bench-serving", "aiperf", "custom");
  /** sglang.launch_server flags srt-operator sets itself. */
  public static final Set<String> MANAGED_ENGINE_ARGS =
      Set.of("model-path", "served-model-name", "host", "port", "nccl-port", "kv-events-config", "grpc-port",
          "nnodes", "node-rank", "dist-init-addr");
  /** sgl-router flags srt-operator sets itself; model-id and tokenizer-path may be overridden. */
  public static final Set<String> MANAGED_SGL_ROUTER_ARGS = Set.of("worker-urls", "host", "port");
  public static final Set<String> MANAGED_DYNAMO_FRONTEND_ARGS = Set.of("http-port", "http-host");
  public static final Set<String> MANAGED_BENCH_SERVING_ARGS =
      Set.of("base-url", "host", "port", "model", "seed", "output-file");
  public static final Set<String> MANAGED_AIPERF_ARGS =
      Set.of("url", "model", "model-names", "random-seed", "output-artifact-dir", "artifact-dir");

  public static final int DEFAULT_GPUS_PER_NODE = 8;

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern CARGO_PACKAGE = Pattern.compile("[A-Za-z0-9_-]+");
  private static final Pattern FLAG_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
  private static final Pattern SLURM_TIME =
      Pattern.compile("([0-9]+-)?[0-9]+(:[0-9]{1,2}){0,2}|UNLIMITED|INFINITE");

  private Validator() {}

  /** Rules of a comparison; {@code cluster} may be null when it is not known (no fit checks). */
  public static List<Problem> validate(RouterComparison rc, GpuCluster cluster) {
    return validate(rc, cluster, null);
  }

  /**
   * As {@link #validate(RouterComparison, GpuCluster)}, for running in {@code mode} ("slurm" or
   * "direct") instead of the cluster's own mode when it is not null.
   */
  public static List<Problem> validate(RouterComparison rc, GpuCluster cluster, String mode) {
    List<Problem> out = new ArrayList<>();
    String name = rc.getMetadata() == null ? null : rc.getMetadata().getName();
    if (name == null || name.isBlank()) {
      out.add(Problem.error("metadata.name", "is required"));
    } else if (!DNS_LABEL.matcher(name).matches() || name.length() > 63) {
      out.add(Problem.error("metadata.name", "must be a DNS label (lower-case letters, digits, '-'; at most 63 characters): it names jobs and run directories"));
    }
    RouterComparisonSpec spec = rc.getSpec();
    if (spec == null) {
      out.add(Problem.error("spec", "is required"));
      return out;
    }
    if (spec.clusterRef == null || blank(spec.clusterRef.name)) {
      out.add(Problem.error("spec.clusterRef.name", "is required"));
    }
    if (spec.model == null) {
      out.add(Problem.error("spec.model", "is required"));
    } else {
      requireAbsolute(out, "spec.model.path", spec.model.path, true);
      requireAbsolute(out, "spec.model.tokenizerPath", spec.model.tokenizerPath, false);
    }
    boolean disaggregated = spec.resources != null && spec.resources.disaggregated();
    if (spec.resources == null) {
      out.add(Problem.error("spec.resources", "is required"));
    } else {
      resources(out, spec.resources, cluster);
      parallelism(out, spec, cluster);
    }
    backend(out, spec.backend);
    dynamo(out, spec.dynamo, spec);
    if (spec.healthCheck != null) {
      duration(out, "spec.healthCheck.timeout", spec.healthCheck.timeout);
      duration(out, "spec.healthCheck.interval", spec.healthCheck.interval);
    }
    workload(out, spec.workload);
    if (spec.execution != null && spec.execution.order != null
        && !Set.of("declared", "randomized").contains(spec.execution.order)) {
      out.add(Problem.error("spec.execution.order", "must be declared or randomized"));
    }
    arms(out, spec, disaggregated);
    if (cluster != null && spec.clusterRef != null && spec.clusterRef.name != null
        && cluster.getMetadata() != null && !spec.clusterRef.name.equals(cluster.getMetadata().getName())) {
      out.add(Problem.warning("spec.clusterRef.name",
          "names " + spec.clusterRef.name + " but the cluster in use is " + cluster.getMetadata().getName()));
    }
    String effectiveMode = mode != null ? mode : cluster == null || cluster.getSpec() == null ? null : cluster.getSpec().mode;
    if ("direct".equals(effectiveMode) && spec.resources != null && nodes(spec.resources) > 1) {
      out.add(Problem.error("spec.resources", "a direct-mode cluster is one host: the topology needs " + nodes(spec.resources) + " nodes"));
    }
    out.addAll(ShellSafetyRules.check(rc));
    // A rule about the shared spec runs once per arm that triggers it; report each problem once.
    return new ArrayList<>(new LinkedHashSet<>(out));
  }

  private static void arms(List<Problem> out, RouterComparisonSpec spec, boolean disaggregated) {
    if (spec.arms == null || spec.arms.isEmpty()) {
      out.add(Problem.error("spec.arms", "needs at least one arm"));
      return;
    }
    if (spec.arms.size() > 8) {
      out.add(Problem.error("spec.arms", "at most 8 arms (they run one after another on the same GPUs); found " + spec.arms.size()));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < spec.arms.size(); i++) {
      String p = "spec.arms[" + i + "]";
      ArmSpec arm = spec.arms.get(i);
      if (arm == null) {
        out.add(Problem.error(p, "is empty"));
        continue;
      }
      if (blank(arm.name)) {
        out.add(Problem.error(p + ".name", "is required"));
      } else if (!DNS_LABEL.matcher(arm.name).matches() || arm.name.length() > 63) {
        out.add(Problem.error(p + ".name", "must be a DNS label: lower-case letters, digits and '-', at most 63 characters"));
      } else if (!seen.add(arm.name)) {
        out.add(Problem.error(p + ".name", "duplicate arm name " + arm.name));
      }
      frontend(out, p + ".frontend", arm.frontend, spec, disaggregated);
      String type = arm.frontend == null ? null : arm.frontend.type;
      if (arm.dynamo != null) {
        if (arm.dynamo.sidecar != null && !"dynamo".equals(type)) {
          out.add(Problem.error(p + ".dynamo.sidecar", "requires frontend.type: dynamo"));
        }
        if (arm.dynamo.sidecar != null) {
          flagList(out, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args);
          out.addAll(FlagVocabulary.checkArgs(FlagVocabulary.DYNAMO_SIDECAR, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args));
        }
        if (arm.dynamo.policyCatalog != null) {
          policyCatalog(out, p + ".dynamo.policyCatalog", arm.dynamo.policyCatalog, type, spec.dynamo);
        }
      }
    }
  }

  private static void frontend(List<Problem> out, String p, FrontendSpec f, RouterComparisonSpec spec, boolean disaggregated) {
    if (f == null) {
      out.add(Problem.error(p, "is required"));
      return;
    }
    if (blank(f.type)) {
      out.add(Problem.error(p + ".type", "is required: sgl-router or dynamo"));
      return;
    }
    if (!FRONTEND_TYPES.contains(f.type)) {
      out.add(Problem.error(p + ".type", "unknown frontend type " + f.type + "; must be sgl-router or dynamo"));
      return;
    }
    flags(out, p + ".args", f.args);
    env(out, p + ".env", f.env);
    out.addAll(FlagVocabulary.check("sgl-router".equals(f.type) ? FlagVocabulary.SGL_ROUTER : FlagVocabulary.DYNAMO_FRONTEND, p + ".args", f.args));
    if ("sgl-router".equals(f.type)) {
      String backendType = spec.backend == null || spec.backend.type == null ? "sglang" : spec.backend.type;
      if (!"sglang".equals(backendType)) {
        out.add(Problem.error(p + ".type", "frontend.type: sgl-router needs backend.type: sglang"));
      }
      if (disaggregated) {
        out.add(Problem.error(p + ".type", "frontend.type: sgl-router routes an aggregate worker pool only; "
            + "its static --worker-urls discovery has no prefill/decode split (remove the prefill/decode resources)"));
      }
      if (f.binary != null && f.source != null) {
        out.add(Problem.error(p + ".source", "set at most one of binary and source"));
      }
      requireAbsolute(out, p + ".binary", f.binary, false);
      if (f.binary != null && f.binary.contains("=")) {
        out.add(Problem.error(p + ".binary", "must not contain '='"));
      }
      requireAbsolute(out, p + ".source", f.source, false);
      managed(out, p + ".args", f.args, MANAGED_SGL_ROUTER_ARGS, "for sgl-router");
    } else {
      if (f.binary != null || f.source != null) {
        out.add(Problem.error(p + (f.binary != null ? ".binary" : ".source"),
            "only for frontend.type: sgl-router; the Dynamo frontend comes from spec.dynamo"));
      }
      if (spec.dynamo == null) {
        out.add(Problem.error("spec.dynamo", "is required by arms with frontend.type: dynamo (set version, hash or wheel)"));
      }
      if (disaggregated) {
        out.add(Problem.error("spec.resources", "prefill/decode topologies are not supported yet for frontend.type: dynamo; use aggWorkers"));
      }
      managed(out, p + ".args", f.args, MANAGED_DYNAMO_FRONTEND_ARGS, "for the Dynamo frontend");
    }
  }

  private static void policyCatalog(List<Problem> out, String p, PolicyCatalogSpec c, String frontendType, DynamoSpec dynamo) {
    if (!"dynamo".equals(frontendType)) {
      out.add(Problem.error(p, "requires frontend.type: dynamo"));
    }
    if (dynamo == null || dynamo.hash == null) {
      out.add(Problem.error(p, "requires a pinned source build: set spec.dynamo.hash"));
    }
    if ((c.git == null) == (c.path == null)) {
      out.add(Problem.error(p, "set exactly one of git or path"));
    }
    if (c.git != null && c.rev == null) {
      out.add(Problem.error(p + ".rev", "git needs an immutable rev (a 40-hex commit)"));
    }
    if (c.rev != null && !COMMIT.matcher(c.rev).matches()) {
      out.add(Problem.error(p + ".rev", "must be an immutable rev: a full 40-hex commit, not " + c.rev));
    }
    requireAbsolute(out, p + ".path", c.path, false);
    if (c.crateSubdir != null && (c.crateSubdir.startsWith("/") || c.crateSubdir.contains(".."))) {
      out.add(Problem.error(p + ".crateSubdir", "must be a relative path inside the repository"));
    }
    if (c.config != null && (c.config.startsWith("/") || c.config.contains(".."))) {
      out.add(Problem.error(p + ".config", "must be a relative path inside the crate directory"));
    }
    if (blank(c.packageName)) {
      out.add(Problem.error(p + ".package", "is required: the cargo package name of the catalog crate"));
    } else if (!CARGO_PACKAGE.matcher(c.packageName).matches()) {
      out.add(Problem.error(p + ".package", "is not a cargo package name (letters, digits, '-' and '_')"));
    }
    tomlSafe(out, p + ".path", c.path);
    tomlSafe(out, p + ".crateSubdir", c.crateSubdir);
  }

  private static void resources(List<Problem> out, ResourcesSpec r, GpuCluster cluster) {
    boolean agg = r.aggNodes != null || r.aggWorkers != null || r.gpusPerWorker != null;
    if (agg && r.disaggregated()) {
      out.add(Problem.error("spec.resources", "aggregated (agg*, gpusPerWorker) and prefill/decode fields cannot be mixed"));
      return;
    }
    positive(out, "spec.resources.aggNodes", r.aggNodes);
    positive(out, "spec.resources.aggWorkers", r.aggWorkers);
    positive(out, "spec.resources.gpusPerWorker", r.gpusPerWorker);
    positive(out, "spec.resources.prefillNodes", r.prefillNodes);
    positive(out, "spec.resources.decodeNodes", r.decodeNodes);
    positive(out, "spec.resources.prefillWorkers", r.prefillWorkers);
    positive(out, "spec.resources.decodeWorkers", r.decodeWorkers);
    if (r.disaggregated()) {
      if (r.prefillWorkers == null || r.decodeWorkers == null) {
        out.add(Problem.error("spec.resources", "prefillWorkers and decodeWorkers go together"));
      }
      return;
    }
    if (r.aggWorkers == null) {
      out.add(Problem.error("spec.resources.aggWorkers", "is required (or prefillWorkers and decodeWorkers)"));
      return;
    }
    int perNode = gpusPerNode(cluster);
    int nodes = r.aggNodes == null ? 1 : r.aggNodes;
    if (r.aggWorkers < 1 || nodes < 1) {
      return;
    }
    int perWorker = r.gpusPerWorker != null ? r.gpusPerWorker : nodes * perNode / r.aggWorkers;
    if (perWorker < 1) {
      out.add(Problem.error("spec.resources.aggWorkers", r.aggWorkers + " workers do not fit on " + nodes + " x " + perNode + " GPUs"));
    } else if ((long) r.aggWorkers * perWorker > (long) nodes * perNode) {
      out.add(Problem.error("spec.resources", "aggWorkers x gpusPerWorker = " + (r.aggWorkers * perWorker)
          + " GPUs, more than aggNodes x gpusPerNode = " + (nodes * perNode)));
    } else if (perWorker > perNode && perWorker % perNode != 0) {
      out.add(Problem.error("spec.resources.gpusPerWorker", perWorker + " GPUs per worker span nodes of " + perNode
          + ": a multi-node worker takes whole nodes, so use a multiple of " + perNode));
    } else if (perWorker <= perNode && (long) (perNode / perWorker) * nodes < r.aggWorkers) {
      out.add(Problem.error("spec.resources", r.aggWorkers + " workers of " + perWorker + " GPUs do not pack onto "
          + nodes + " nodes of " + perNode + " GPUs"));
    }
  }

  /** The engine flags that name its parallel degrees, each with its aliases (SGLang's spellings). */
  private static final List<String> TENSOR_PARALLEL = List.of("tensor-parallel-size", "tp-size");
  private static final List<String> PIPELINE_PARALLEL = List.of("pipeline-parallel-size", "pp-size");
  private static final List<String> DATA_PARALLEL = List.of("data-parallel-size", "dp-size");

  /**
   * A warning when the engine's tensor x pipeline parallel degrees do not use exactly the GPUs each
   * worker is given: the engine would leave GPUs idle (or not start), and the comparison would
   * measure less hardware than it reports. Data parallelism (with its attention variants) is left
   * to the user.
   */
  private static void parallelism(List<Problem> out, RouterComparisonSpec spec, GpuCluster cluster) {
    ResourcesSpec r = spec.resources;
    if (r.disaggregated() || r.aggWorkers == null || r.aggWorkers < 1 || spec.backend == null || spec.backend.args == null) {
      return;
    }
    Map<String, Object> args = spec.backend.args;
    if (DATA_PARALLEL.stream().anyMatch(k -> argKey(args, k) != null)) {
      return;
    }
    int nodes = r.aggNodes == null ? 1 : r.aggNodes;
    int perWorker = r.gpusPerWorker != null ? r.gpusPerWorker : nodes * gpusPerNode(cluster) / r.aggWorkers;
    String tpKey = firstKey(args, TENSOR_PARALLEL);
    String ppKey = firstKey(args, PIPELINE_PARALLEL);
    Integer tp = tpKey == null ? Integer.valueOf(1) : positiveInt(args.get(tpKey));
    Integer pp = ppKey == null ? Integer.valueOf(1) : positiveInt(args.get(ppKey));
    if (tp == null || pp == null || perWorker < 1 || tp * pp == perWorker) {
      return;
    }
    String path = FieldPath.field("spec.backend.args", tpKey != null ? tpKey : ppKey != null ? ppKey : "tensor-parallel-size");
    out.add(Problem.warning(tpKey == null && ppKey == null ? "spec.backend.args" : path,
        "tensor x pipeline parallel = " + tp + " x " + pp + " = " + (tp * pp) + " GPUs, but each worker is given " + perWorker
            + " (spec.resources): the engine would " + (tp * pp < perWorker ? "leave GPUs idle" : "need more GPUs than it has")));
  }

  private static String firstKey(Map<String, Object> args, List<String> aliases) {
    return aliases.stream().map(k -> argKey(args, k)).filter(java.util.Objects::nonNull).findFirst().orElse(null);
  }

  /** The key of {@code flag} in {@code args} as written ({@code _} or {@code -}), or null. */
  private static String argKey(Map<String, Object> args, String flag) {
    return args.keySet().stream().filter(k -> k.replace('_', '-').equals(flag)).findFirst().orElse(null);
  }

  private static Integer positiveInt(Object value) {
    try {
      int n = Integer.parseInt(String.valueOf(value).trim());
      return n >= 1 ? n : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static void backend(List<Problem> out, BackendSpec b) {
    if (b == null) {
      return;
    }
    if (b.type != null && !"sglang".equals(b.type)) {
      out.add(Problem.error("spec.backend.type", "unsupported backend " + b.type + "; supported: sglang"));
    }
    flags(out, "spec.backend.args", b.args);
    out.addAll(FlagVocabulary.check(FlagVocabulary.SGLANG_SERVER, "spec.backend.args", b.args));
    managed(out, "spec.backend.args", b.args, MANAGED_ENGINE_ARGS, "for the engine");
    env(out, "spec.backend.env", b.env);
    if (b.kvEvents != null && b.kvEvents.publisher != null && !"zmq".equals(b.kvEvents.publisher)) {
      out.add(Problem.error("spec.backend.kvEvents.publisher", "supported publishers: zmq"));
    }
  }

  private static void dynamo(List<Problem> out, DynamoSpec d, RouterComparisonSpec spec) {
    if (d == null) {
      return;
    }
    int sources = (d.version != null ? 1 : 0) + (d.hash != null ? 1 : 0) + (d.wheel != null ? 1 : 0);
    if (sources != 1) {
      out.add(Problem.error("spec.dynamo", sources == 0
          ? "set one Dynamo install source: version, hash or wheel"
          : "set exactly one Dynamo install source: version, hash or wheel (found " + sources + ")"));
    }
    if (d.hash != null && !COMMIT.matcher(d.hash).matches()) {
      out.add(Problem.error("spec.dynamo.hash", "must be a full 40-hex commit, not " + d.hash));
    }
    requireAbsolute(out, "spec.dynamo.wheel", d.wheel, false);
    if (d.eventPlane != null && !"zmq".equals(d.eventPlane)) {
      out.add(Problem.error("spec.dynamo.eventPlane", "must be zmq (a nats plane needs a NATS server, which srt-operator does not start yet)"));
    }
    if (d.requestPlane != null && !Set.of("tcp", "http").contains(d.requestPlane)) {
      out.add(Problem.error("spec.dynamo.requestPlane", "must be tcp or http (a nats plane needs a NATS server, which srt-operator does not start yet)"));
    }
    duration(out, "spec.dynamo.sidecarStartupTimeout", d.sidecarStartupTimeout);
    if (d.sidecarPort != null) {
      int workers = spec.resources == null || spec.resources.aggWorkers == null ? 1 : spec.resources.aggWorkers;
      if (d.sidecarPort < 1 || d.sidecarPort + workers - 1 > 65535) {
        out.add(Problem.error("spec.dynamo.sidecarPort", "sidecar gRPC ports (sidecarPort + worker index) must be between 1 and 65535"));
      }
    }
  }

  private static void workload(List<Problem> out, WorkloadSpec w) {
    if (w == null) {
      out.add(Problem.error("spec.workload", "is required"));
      return;
    }
    String tool = w.tool == null ? "bench-serving" : w.tool;
    if (!WORKLOAD_TOOLS.contains(tool)) {
      out.add(Problem.error("spec.workload.tool", "must be bench-serving, aiperf or custom"));
    }
    if ("custom".equals(tool) && blank(w.command)) {
      out.add(Problem.error("spec.workload.command", "workload.tool: custom needs command"));
    }
    if (!"custom".equals(tool) && w.command != null) {
      out.add(Problem.error("spec.workload.command", "command is only used with tool: custom"));
    }
    flags(out, "spec.workload.args", w.args);
    env(out, "spec.workload.env", w.env);
    if ("bench-serving".equals(tool)) {
      out.addAll(FlagVocabulary.check(FlagVocabulary.BENCH_SERVING, "spec.workload.args", w.args));
      managed(out, "spec.workload.args", w.args, MANAGED_BENCH_SERVING_ARGS, "for bench-serving");
    } else if ("aiperf".equals(tool)) {
      out.addAll(FlagVocabulary.check(FlagVocabulary.AIPERF, "spec.workload.args", w.args));
      managed(out, "spec.workload.args", w.args, MANAGED_AIPERF_ARGS, "for aiperf");
    }
  }

  /** Rules of a cluster. */
  public static List<Problem> validate(GpuCluster cluster) {
    List<Problem> out = new ArrayList<>();
    if (cluster.getMetadata() == null || blank(cluster.getMetadata().getName())) {
      out.add(Problem.error("metadata.name", "is required"));
    }
    GpuClusterSpec s = cluster.getSpec();
    if (s == null) {
      out.add(Problem.error("spec", "is required"));
      return out;
    }
    if (!Set.of("slurm", "direct").contains(String.valueOf(s.mode))) {
      out.add(Problem.error("spec.mode", s.mode == null ? "is required: slurm or direct" : "must be slurm or direct"));
    }
    String transport = s.transport == null ? "ssh" : s.transport;
    if (!Set.of("ssh", "local").contains(transport)) {
      out.add(Problem.error("spec.transport", "must be ssh or local"));
    }
    if ("ssh".equals(transport) && s.ssh == null) {
      out.add(Problem.error("spec.ssh", "is required with transport: ssh"));
    }
    if (s.ssh != null) {
      // Checked whenever present, as the CRD's CEL rules on the ssh block do.
      ssh(out, s.ssh);
    }
    requireAbsolute(out, "spec.workDir", s.workDir, true);
    tomlSafe(out, "spec.workDir", s.workDir);
    positive(out, "spec.gpusPerNode", s.gpusPerNode);
    if (s.python != null && (s.python.isBlank() || s.python.contains("="))) {
      out.add(Problem.error("spec.python", "must be an interpreter name or path (without '=')"));
    }
    duration(out, "spec.pollInterval", s.pollInterval);
    env(out, "spec.env", s.env);
    if (s.path != null) {
      for (int i = 0; i < s.path.size(); i++) {
        requireAbsolute(out, "spec.path[" + i + "]", s.path.get(i), true);
        if (s.path.get(i) != null && s.path.get(i).contains(":")) {
          out.add(Problem.error("spec.path[" + i + "]", "must not contain ':'"));
        }
      }
    }
    if (s.slurm != null) {
      if (!"slurm".equals(s.mode)) {
        out.add(Problem.error("spec.slurm", "slurm settings are only allowed with mode: slurm"));
      }
      if (s.slurm.timeLimit != null && !SLURM_TIME.matcher(s.slurm.timeLimit).matches()) {
        out.add(Problem.error("spec.slurm.timeLimit", "must be a Slurm time such as 02:00:00, 90 or 1-00:00:00"));
      }
      directives(out, "spec.slurm.sbatchDirectives", s.slurm.sbatchDirectives);
      directives(out, "spec.slurm.srunOptions", s.slurm.srunOptions);
      singleLine(out, "spec.slurm.partition", s.slurm.partition);
      singleLine(out, "spec.slurm.account", s.slurm.account);
    }
    if (s.container != null && s.container.runtime != null) {
      String rt = s.container.runtime;
      if (!Set.of("none", "pyxis", "docker").contains(rt)) {
        out.add(Problem.error("spec.container.runtime", "must be none, pyxis or docker"));
      } else if ("pyxis".equals(rt) && !"slurm".equals(s.mode)) {
        out.add(Problem.error("spec.container.runtime", "pyxis needs mode: slurm"));
      } else if ("docker".equals(rt) && !"direct".equals(s.mode)) {
        out.add(Problem.error("spec.container.runtime", "docker needs mode: direct"));
      }
      if (!"none".equals(rt) && blank(s.container.image)) {
        out.add(Problem.error("spec.container.image", "a container runtime needs image"));
      }
    }
    out.addAll(ShellSafetyRules.check(cluster));
    return out;
  }

  private static void ssh(List<Problem> out, SshSpec ssh) {
    if (blank(ssh.host)) {
      out.add(Problem.error("spec.ssh.host", "is required"));
    }
    if (blank(ssh.user)) {
      out.add(Problem.error("spec.ssh.user", "is required"));
    }
    if (ssh.port != null && (ssh.port < 1 || ssh.port > 65535)) {
      out.add(Problem.error("spec.ssh.port", "must be between 1 and 65535"));
    }
    if (ssh.privateKeySecretRef == null && ssh.privateKeyFile == null) {
      out.add(Problem.error("spec.ssh.privateKeySecretRef", "set privateKeySecretRef (operator) or privateKeyFile (CLI)"));
    }
    boolean skip = Boolean.TRUE.equals(ssh.insecureSkipHostKeyVerification);
    if (ssh.knownHostsSecretRef == null && ssh.knownHostsFile == null && !skip) {
      out.add(Problem.error("spec.ssh.knownHostsSecretRef",
          "set knownHostsSecretRef or knownHostsFile, or explicitly insecureSkipHostKeyVerification: true"));
    }
    if (ssh.privateKeySecretRef != null && (blank(ssh.privateKeySecretRef.name) || blank(ssh.privateKeySecretRef.key))) {
      out.add(Problem.error("spec.ssh.privateKeySecretRef", "needs name and key"));
    }
    if (ssh.knownHostsSecretRef != null && (blank(ssh.knownHostsSecretRef.name) || blank(ssh.knownHostsSecretRef.key))) {
      out.add(Problem.error("spec.ssh.knownHostsSecretRef", "needs name and key"));
    }
    duration(out, "spec.ssh.connectTimeout", ssh.connectTimeout);
  }

  /** GPUs per node of the cluster, or the documented default when no cluster is known. */
  public static int gpusPerNode(GpuCluster cluster) {
    return cluster == null || cluster.getSpec() == null || cluster.getSpec().gpusPerNode == null
        ? DEFAULT_GPUS_PER_NODE
        : cluster.getSpec().gpusPerNode;
  }

  private static int nodes(ResourcesSpec r) {
    if (r.disaggregated()) {
      return (r.prefillNodes == null ? 0 : r.prefillNodes) + (r.decodeNodes == null ? 0 : r.decodeNodes);
    }
    return r.aggNodes == null ? 1 : r.aggNodes;
  }

  private static void managed(List<Problem> out, String p, Map<String, Object> args, Set<String> owned, String who) {
    if (args == null) {
      return;
    }
    for (String key : args.keySet()) {
      String normal = key.replace('_', '-');
      if (owned.contains(normal)) {
        out.add(Problem.error(FieldPath.field(p, key), "is set by srt-operator " + who + " (" + String.join(", ", owned.stream().sorted().toList()) + " are managed)"));
      }
    }
  }

  private static void flags(List<Problem> out, String p, Map<String, Object> args) {
    if (args == null) {
      return;
    }
    for (Map.Entry<String, Object> e : args.entrySet()) {
      String fp = FieldPath.field(p, e.getKey());
      if (!FLAG_NAME.matcher(e.getKey()).matches()) {
        out.add(Problem.error(fp, "is not a flag name (letters, digits, '-', '_' and '.'; without the leading --)"));
      }
      Object v = e.getValue();
      if (v == null) {
        out.add(Problem.error(fp, "needs a value (true for a flag without a value)"));
      }
      if (v instanceof List<?> list) {
        for (int i = 0; i < list.size(); i++) {
          if (list.get(i) instanceof Map || list.get(i) instanceof List) {
            out.add(Problem.error(fp + "[" + i + "]", "list items must be scalars"));
          }
        }
      }
    }
  }

  private static void flagList(List<Problem> out, String p, List<String> args) {
    if (args == null) {
      return;
    }
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i) == null) {
        out.add(Problem.error(p + "[" + i + "]", "must not be empty"));
      }
    }
  }

  private static void env(List<Problem> out, String p, Map<String, String> env) {
    if (env == null) {
      return;
    }
    for (Map.Entry<String, String> e : env.entrySet()) {
      if (!ENV_NAME.matcher(e.getKey()).matches()) {
        out.add(Problem.error(FieldPath.field(p, e.getKey()), "is not a valid environment variable name"));
      }
      if (e.getValue() == null) {
        out.add(Problem.error(FieldPath.field(p, e.getKey()), "needs a value"));
      }
    }
  }

  private static void directives(List<Problem> out, String p, Map<String, String> directives) {
    if (directives == null) {
      return;
    }
    for (Map.Entry<String, String> e : directives.entrySet()) {
      String fp = FieldPath.field(p, e.getKey());
      if (!FLAG_NAME.matcher(e.getKey()).matches()) {
        out.add(Problem.error(fp, "is not an option name (without the leading --)"));
      }
      singleLine(out, fp, e.getValue());
    }
  }

  private static void singleLine(List<Problem> out, String p, String value) {
    if (value != null && value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      out.add(Problem.error(p, "must be a single line without control characters"));
    }
  }

  private static void requireAbsolute(List<Problem> out, String p, String value, boolean required) {
    if (value == null) {
      if (required) {
        out.add(Problem.error(p, "is required"));
      }
    } else if (!value.startsWith("/")) {
      out.add(Problem.error(p, "must be an absolute host path, not " + value));
    } else if (value.indexOf('\0') >= 0 || value.indexOf('\n') >= 0) {
      out.add(Problem.error(p, "must not contain NUL or newline"));
    }
  }

  /** Paths that end up inside quoted TOML strings of the Dynamo build. */
  private static void tomlSafe(List<Problem> out, String p, String value) {
    if (value != null && (value.contains("\"") || value.contains("\\"))) {
      out.add(Problem.error(p, "must not contain '\"' or '\\'"));
    }
  }

  private static void duration(List<Problem> out, String p, String value) {
    if (value != null && !Durations.isValid(value)) {
      out.add(Problem.error(p, "must be a duration such as 30m, 10s or 1h30m, not " + value));
    }
  }

  private static void positive(List<Problem> out, String p, Integer value) {
    if (value != null && value < 1) {
      out.add(Problem.error(p, "must be at least 1"));
    }
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

}
