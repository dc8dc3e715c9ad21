package dev.srt.operator.config;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.BackendSpec;
import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.PolicyCatalogSpec;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of a RouterComparison, all problems at once, each with its field path; with its
 * GpuCluster when known (does the topology fit?). Each router kind adds its own through
 * {@link FrontendRules}.
 */
final class ComparisonRules {
  /** The engine flags that name its parallel degrees, each with its aliases (SGLang's spellings). */
  private static final List<String> TENSOR_PARALLEL = List.of("tensor-parallel-size", "tp-size");
  private static final List<String> PIPELINE_PARALLEL = List.of("pipeline-parallel-size", "pp-size");
  private static final List<String> DATA_PARALLEL = List.of("data-parallel-size", "dp-size");

  private ComparisonRules() {}

  /**
   * As {@link #validate(RouterComparison, GpuCluster)}, for running in {@code mode} ("slurm" or
   * "direct") instead of the cluster's own mode when it is not null.
   */
  static List<Problem> check(RouterComparison rc, GpuCluster cluster, String mode) {
    List<Problem> out = new ArrayList<>();
    String name = rc.getMetadata() == null ? null : rc.getMetadata().getName();
    if (name == null || name.isBlank()) {
      out.add(Problem.error("metadata.name", "is required"));
    } else if (!Rules.DNS_LABEL.matcher(name).matches() || name.length() > 63) {
      out.add(Problem.error("metadata.name", "must be a DNS label (lower-case letters, digits, '-'; at most 63 characters): it names jobs and run directories"));
    }
    RouterComparisonSpec spec = rc.getSpec();
    if (spec == null) {
      out.add(Problem.error("spec", "is required"));
      return out;
    }
    out.addAll(BoundsRules.check(spec, cluster));
    if (spec.clusterRef == null || Rules.blank(spec.clusterRef.name)) {
      out.add(Problem.error("spec.clusterRef.name", "is required"));
    }
    if (spec.model == null) {
      out.add(Problem.error("spec.model", "is required"));
    } else {
      Rules.requireAbsolute(out, "spec.model.path", spec.model.path, true);
      Rules.requireAbsolute(out, "spec.model.tokenizerPath", spec.model.tokenizerPath, false);
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
      Rules.duration(out, "spec.healthCheck.timeout", spec.healthCheck.timeout);
      Rules.duration(out, "spec.healthCheck.interval", spec.healthCheck.interval);
    }
    workload(out, spec.workload);
    if (spec.execution != null && spec.execution.order != null
        && !Set.of("declared", "randomized").contains(spec.execution.order)) {
      out.add(Problem.error("spec.execution.order", "must be declared or randomized"));
    }
    arms(out, spec, disaggregated);
    SecretEnvRules.comparison(out, spec, cluster);
    if (cluster != null && spec.clusterRef != null && spec.clusterRef.name != null
        && cluster.getMetadata() != null && !spec.clusterRef.name.equals(cluster.getMetadata().getName())) {
      out.add(Problem.warning("spec.clusterRef.name",
          "names " + Echo.value(spec.clusterRef.name) + " but the cluster in use is " + Echo.value(cluster.getMetadata().getName())));
    }
    String effectiveMode = mode != null ? mode : cluster == null || cluster.getSpec() == null ? null : cluster.getSpec().mode;
    if ("direct".equals(effectiveMode) && spec.resources != null && nodes(spec.resources) > 1) {
      out.add(Problem.error("spec.resources", "a direct-mode cluster is one host: the topology needs " + nodes(spec.resources) + " nodes"));
    }
    if ("direct".equals(effectiveMode)) {
      directHostRouters(out, spec);
    }
    InfraRules.comparison(out, spec, cluster);
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
      if (Rules.blank(arm.name)) {
        out.add(Problem.error(p + ".name", "is required"));
      } else if (!Rules.DNS_LABEL.matcher(arm.name).matches() || arm.name.length() > 63) {
        out.add(Problem.error(p + ".name", "must be a DNS label: lower-case letters, digits and '-', at most 63 characters"));
      } else if (!seen.add(arm.name)) {
        out.add(Problem.error(p + ".name", "duplicate arm name " + Echo.value(arm.name)));
      }
      FrontendRules.checkArm(out, p + ".frontend", arm.frontend, spec, disaggregated);
      String type = arm.frontend == null ? null : arm.frontend.type;
      if (arm.dynamo != null) {
        if (arm.dynamo.sidecar != null && !"dynamo".equals(type)) {
          out.add(Problem.error(p + ".dynamo.sidecar", "requires frontend.type: dynamo"));
        }
        if (arm.dynamo.sidecar != null) {
          Rules.flagList(out, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args);
          out.addAll(FlagVocabulary.checkArgs(FlagVocabulary.DYNAMO_SIDECAR, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args));
        }
        if (arm.dynamo.policyCatalog != null) {
          policyCatalog(out, p + ".dynamo.policyCatalog", arm.dynamo.policyCatalog, type, spec.dynamo);
        }
      }
    }
  }
  /**
   * On a direct host the router is built in the run from the source the workers run, never taken
   * prebuilt: an opaque binary's build (its SGLang revision, its Dynamo crates) is not part of what
   * the comparison declares, so two runs of one spec could compare different routers.
   */
  private static void directHostRouters(List<Problem> out, RouterComparisonSpec spec) {
    if (spec.arms == null) {
      return;
    }
    for (int i = 0; i < spec.arms.size(); i++) {
      ArmSpec arm = spec.arms.get(i);
      // A Dynamo arm with a binary is already an error of its own (the frontend comes from spec.dynamo).
      if (arm != null && arm.frontend != null && arm.frontend.binary != null && !"dynamo".equals(arm.frontend.type)) {
        out.add(Problem.error("spec.arms[" + i + "].frontend.binary", "a direct host builds the router from source in the run, "
            + "so that the comparison declares what it runs: drop frontend.binary and set frontend.source "
            + "(a prebuilt router is for mode: slurm only)"));
      }
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
    if (c.rev != null && !Rules.COMMIT.matcher(c.rev).matches()) {
      out.add(Problem.error(p + ".rev", "must be an immutable rev: a full 40-hex commit, not " + Echo.value(c.rev)));
    }
    Rules.requireAbsolute(out, p + ".path", c.path, false);
    if (c.crateSubdir != null && (c.crateSubdir.startsWith("/") || c.crateSubdir.contains(".."))) {
      out.add(Problem.error(p + ".crateSubdir", "must be a relative path inside the repository"));
    }
    if (c.config != null && (c.config.startsWith("/") || c.config.contains(".."))) {
      out.add(Problem.error(p + ".config", "must be a relative path inside the crate directory"));
    }
    if (Rules.blank(c.packageName)) {
      out.add(Problem.error(p + ".package", "is required: the cargo package name of the catalog crate"));
    } else if (!Rules.CARGO_PACKAGE.matcher(c.packageName).matches()) {
      out.add(Problem.error(p + ".package", "is not a cargo package name (letters, digits, '-' and '_')"));
    }
    Rules.tomlSafe(out, p + ".path", c.path);
    Rules.tomlSafe(out, p + ".crateSubdir", c.crateSubdir);
  }
  private static void resources(List<Problem> out, ResourcesSpec r, GpuCluster cluster) {
    boolean agg = r.aggNodes != null || r.aggWorkers != null || r.gpusPerWorker != null;
    if (agg && r.disaggregated()) {
      out.add(Problem.error("spec.resources", "aggregated (agg*, gpusPerWorker) and prefill/decode fields cannot be mixed"));
      return;
    }
    Rules.positive(out, "spec.resources.aggNodes", r.aggNodes);
    Rules.positive(out, "spec.resources.aggWorkers", r.aggWorkers);
    Rules.positive(out, "spec.resources.gpusPerWorker", r.gpusPerWorker);
    Rules.positive(out, "spec.resources.prefillNodes", r.prefillNodes);
    Rules.positive(out, "spec.resources.decodeNodes", r.decodeNodes);
    Rules.positive(out, "spec.resources.prefillWorkers", r.prefillWorkers);
    Rules.positive(out, "spec.resources.decodeWorkers", r.decodeWorkers);
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
    if (r.aggWorkers < 1 || (r.aggNodes != null && r.aggNodes < 1) || Validator.gpusPerNode(cluster) < 1
        || (r.gpusPerWorker != null && r.gpusPerWorker < 1)) {
      return;
    }
    WorkerFit fit = WorkerFit.of(r, Validator.gpusPerNode(cluster));
    long perNode = fit.gpusPerNode();
    long nodes = fit.nodes();
    long workers = fit.workers();
    long perWorker = fit.gpusPerWorker();
    if (perWorker < 1) {
      out.add(Problem.error("spec.resources.aggWorkers", workers + " workers do not fit on " + nodes + " x " + perNode + " GPUs"));
    } else if (workers * perWorker > nodes * perNode) {
      out.add(Problem.error("spec.resources", "aggWorkers x gpusPerWorker = " + (workers * perWorker)
          + " GPUs, more than aggNodes x gpusPerNode = " + (nodes * perNode)));
    } else if (perWorker > perNode && perWorker % perNode != 0) {
      out.add(Problem.error("spec.resources.gpusPerWorker", perWorker + " GPUs per worker span nodes of " + perNode
          + ": a multi-node worker takes whole nodes, so use a multiple of " + perNode));
    } else if (perWorker <= perNode && (perNode / perWorker) * nodes < workers) {
      out.add(Problem.error("spec.resources", r.aggWorkers + " workers of " + perWorker + " GPUs do not pack onto "
          + nodes + " nodes of " + perNode + " GPUs"));
    }
  }
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
    if ((r.aggNodes != null && r.aggNodes < 1) || Validator.gpusPerNode(cluster) < 1) {
      return;
    }
    long perWorker = WorkerFit.of(r, Validator.gpusPerNode(cluster)).gpusPerWorker();
    String tpKey = firstKey(args, TENSOR_PARALLEL);
    String ppKey = firstKey(args, PIPELINE_PARALLEL);
    Long tp = tpKey == null ? Long.valueOf(1) : positiveInt(args.get(tpKey));
    Long pp = ppKey == null ? Long.valueOf(1) : positiveInt(args.get(ppKey));
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
  private static Long positiveInt(Object value) {
    try {
      long n = Integer.parseInt(String.valueOf(value).trim());
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
      out.add(Problem.error("spec.backend.type", "unsupported backend " + Echo.value(b.type) + "; supported: sglang"));
    }
    Rules.flags(out, "spec.backend.args", b.args);
    out.addAll(FlagVocabulary.check(FlagVocabulary.SGLANG_SERVER, "spec.backend.args", b.args));
    Rules.managed(out, "spec.backend.args", b.args, Validator.MANAGED_ENGINE_ARGS, "for the engine");
    Rules.env(out, "spec.backend.env", b.env);
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
    if (d.hash != null && !Rules.COMMIT.matcher(d.hash).matches()) {
      out.add(Problem.error("spec.dynamo.hash", "must be a full 40-hex commit, not " + Echo.value(d.hash)));
    }
    Rules.requireAbsolute(out, "spec.dynamo.wheel", d.wheel, false);
    if (d.discovery != null && !Set.of("etcd", "file").contains(d.discovery)) {
      out.add(Problem.error("spec.dynamo.discovery", "must be etcd or file"));
    }
    if (d.eventPlane != null && !Set.of("zmq", "nats").contains(d.eventPlane)) {
      out.add(Problem.error("spec.dynamo.eventPlane", "must be zmq or nats"));
    }
    if (d.requestPlane != null && !Set.of("tcp", "http", "nats").contains(d.requestPlane)) {
      out.add(Problem.error("spec.dynamo.requestPlane", "must be tcp, http or nats"));
    }
    Rules.duration(out, "spec.dynamo.sidecarStartupTimeout", d.sidecarStartupTimeout);
    if (d.sidecarPort != null) {
      long workers = spec.resources == null || spec.resources.aggWorkers == null ? 1 : spec.resources.aggWorkers;
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
    if (!Validator.WORKLOAD_TOOLS.contains(tool)) {
      out.add(Problem.error("spec.workload.tool", "must be bench-serving, aiperf or custom"));
    }
    if ("custom".equals(tool) && Rules.blank(w.command)) {
      out.add(Problem.error("spec.workload.command", "workload.tool: custom needs command"));
    }
    if (!"custom".equals(tool) && w.command != null) {
      out.add(Problem.error("spec.workload.command", "command is only used with tool: custom"));
    }
    Rules.flags(out, "spec.workload.args", w.args);
    Rules.env(out, "spec.workload.env", w.env);
    if ("bench-serving".equals(tool)) {
      out.addAll(FlagVocabulary.check(FlagVocabulary.BENCH_SERVING, "spec.workload.args", w.args));
      Rules.managed(out, "spec.workload.args", w.args, Validator.MANAGED_BENCH_SERVING_ARGS, "for bench-serving");
    } else if ("aiperf".equals(tool)) {
      out.addAll(FlagVocabulary.check(FlagVocabulary.AIPERF, "spec.workload.args", w.args));
      Rules.managed(out, "spec.workload.args", w.args, Validator.MANAGED_AIPERF_ARGS, "for aiperf");
    }
  }
  private static long nodes(ResourcesSpec r) {
    if (r.disaggregated()) {
      return (r.prefillNodes == null ? 0L : r.prefillNodes) + (r.decodeNodes == null ? 0L : r.decodeNodes);
    }
    return r.aggNodes == null ? 1 : r.aggNodes;
  }}
