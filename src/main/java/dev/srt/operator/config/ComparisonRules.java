package dev.srt.operator.config;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.BackendSpec;
import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.PolicyCatalogSpec;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.ExecutionSpec;
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
  private static void execution(List<Problem> out, RouterComparisonSpec spec) {
    ExecutionSpec e = spec.execution;
    if (e == null) {
      return;
    }
    if (e.repetitions != null && (e.repetitions < 1 || e.repetitions > ExecutionSpec.MAX_REPETITIONS)) {
      out.add(Problem.error("spec.execution.repetitions", "must be 1 to " + ExecutionSpec.MAX_REPETITIONS + ", not " + e.repetitions));
    }
    if (e.warmupRequests != null && (e.warmupRequests < 0 || e.warmupRequests > ExecutionSpec.MAX_WARMUP_REQUESTS)) {
      out.add(Problem.error("spec.execution.warmupRequests", "must be 0 to " + ExecutionSpec.MAX_WARMUP_REQUESTS + ", not "
          + e.warmupRequests));
    }
    if (e.maxFailedRatio != null && !(e.maxFailedRatio >= 0 && e.maxFailedRatio <= 1)) {
      out.add(Problem.error("spec.execution.maxFailedRatio", "must be 0 to 1, not " + e.maxFailedRatio));
    }
    if (e.baseline != null && spec.arms.stream().noneMatch(a -> e.baseline.equals(a.name))) {
      out.add(Problem.error("spec.execution.baseline", "names no arm: " + Echo.value(e.baseline) + " (arms: "
          + String.join(", ", spec.arms.stream().map(a -> a.name).toList()) + ")"));
    }
    if (e.warmupRequests != null && spec.workload != null) {
      String flag = "aiperf".equals(spec.workload.tool) ? "warmup-request-count" : "warmup-requests";
      if (spec.workload.args != null && spec.workload.args.keySet().stream().anyMatch(k -> k.replace('_', '-').equals(flag))) {
        out.add(Problem.error("spec.execution.warmupRequests", "spec.workload.args sets --" + flag + " too: set one of them"));
      }
    }
    if (e.repetitions != null && e.repetitions == 1 && e.baseline != null) {
      out.add(Problem.warning("spec.execution.repetitions", "is 1: verdicts need at least 2 runs per arm, every one will be "
          + "not-comparable"));
    }
  }

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
    backend(out, spec.backend, disaggregated);
    dynamo(out, spec.dynamo, spec);
    if (spec.healthCheck != null) {
      Rules.duration(out, "spec.healthCheck.timeout", spec.healthCheck.timeout);
      Rules.duration(out, "spec.healthCheck.interval", spec.healthCheck.interval);
    }
    workload(out, spec.workload);
    execution(out, spec);
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
          if (disaggregated && arm.dynamo.sidecarEnabled()) {
            disaggregatedSidecar(out, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args);
          }
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
  /**
   * Sidecar flags that a prefill/decode topology decides, as Dynamo's SGLang sidecar handles it:
   * the role comes from the engine, the prefill bootstrap host from the node, and the component
   * from the role.
   */
  private static void disaggregatedSidecar(List<Problem> out, String p, List<String> args) {
    if (args == null) {
      return;
    }
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String name = a == null ? "" : a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      String why = switch (name) {
        case "--disaggregation-mode" -> "has no effect in Dynamo's SGLang sidecar, which takes each worker's role from its "
            + "engine; srt-operator sets the engines' --disaggregation-mode from spec.resources";
        case "--bootstrap-host" -> "is set by srt-operator on each prefill worker's sidecar: the address of its node, where "
            + "decode workers reach the prefill engine's bootstrap port";
        case "--component" -> "is ignored for prefill/decode workers: Dynamo's SGLang sidecar registers them under their "
            + "fixed role components, where the frontend finds the prefill workers";
        default -> null;
      };
      if (why != null) {
        out.add(Problem.error(p + "[" + i + "]", Echo.value(a) + " " + why));
      }
    }
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
      disaggregated(out, r, cluster);
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
    fit(out, WorkerFit.of(r, Validator.gpusPerNode(cluster)), new RoleFields("aggWorkers", "gpusPerWorker", "aggNodes", "workers"));
  }

  /** The field names of one role's topology, for the messages about its fit. */
  private record RoleFields(String workers, String gpusPerWorker, String nodes, String noun) {}

  /** Does one role's fit (aggregated, prefill or decode) pack onto its nodes? */
  private static void fit(List<Problem> out, WorkerFit fit, RoleFields f) {
    long perNode = fit.gpusPerNode();
    long nodes = fit.nodes();
    long workers = fit.workers();
    long perWorker = fit.gpusPerWorker();
    if (perWorker < 1) {
      out.add(Problem.error("spec.resources." + f.workers(), workers + " " + f.noun() + " do not fit on " + nodes + " x " + perNode + " GPUs"));
    } else if (workers * perWorker > nodes * perNode) {
      out.add(Problem.error("spec.resources", f.workers() + " x " + f.gpusPerWorker() + " = " + (workers * perWorker)
          + " GPUs, more than " + f.nodes() + " x gpusPerNode = " + (nodes * perNode)));
    } else if (perWorker > perNode && perWorker % perNode != 0) {
      out.add(Problem.error("spec.resources." + f.gpusPerWorker(), perWorker + " GPUs per worker span nodes of " + perNode
          + ": a multi-node worker takes whole nodes, so use a multiple of " + perNode));
    } else if (perWorker <= perNode && (perNode / perWorker) * nodes < workers) {
      out.add(Problem.error("spec.resources", workers + " " + f.noun() + " of " + perWorker + " GPUs do not pack onto "
          + nodes + " nodes of " + perNode + " GPUs"));
    }
  }

  /**
   * A prefill/decode topology: both worker counts; prefillNodes and decodeNodes together or not at
   * all; each role's fit on its own nodes, or both roles on one shared node.
   */
  private static void disaggregated(List<Problem> out, ResourcesSpec r, GpuCluster cluster) {
    if (r.prefillWorkers == null || r.decodeWorkers == null) {
      out.add(Problem.error("spec.resources", "prefillWorkers and decodeWorkers go together"));
      return;
    }
    if ((r.prefillNodes == null) != (r.decodeNodes == null)) {
      out.add(Problem.error("spec.resources",
          "set both prefillNodes and decodeNodes (each role on its own nodes), or neither (both roles share one node)"));
      return;
    }
    Rules.positive(out, "spec.resources.gpusPerPrefill", r.gpusPerPrefill);
    Rules.positive(out, "spec.resources.gpusPerDecode", r.gpusPerDecode);
    int gpusPerNode = Validator.gpusPerNode(cluster);
    if (r.prefillWorkers < 1 || r.decodeWorkers < 1 || (r.prefillNodes != null && r.prefillNodes < 1)
        || (r.decodeNodes != null && r.decodeNodes < 1) || gpusPerNode < 1
        || (r.gpusPerPrefill != null && r.gpusPerPrefill < 1) || (r.gpusPerDecode != null && r.gpusPerDecode < 1)) {
      return;
    }
    DisaggregatedFit fit = DisaggregatedFit.of(r, gpusPerNode);
    if (!fit.sharedNode()) {
      fit(out, fit.prefill(), new RoleFields("prefillWorkers", "gpusPerPrefill", "prefillNodes", "prefill workers"));
      fit(out, fit.decode(), new RoleFields("decodeWorkers", "gpusPerDecode", "decodeNodes", "decode workers"));
      return;
    }
    long prefill = fit.prefill().workers() * fit.prefill().gpusPerWorker();
    long decode = fit.decode().workers() * fit.decode().gpusPerWorker();
    if (fit.prefill().gpusPerWorker() < 1 || fit.decode().gpusPerWorker() < 1) {
      out.add(Problem.error("spec.resources", fit.workers() + " prefill and decode workers do not fit on one node of "
          + gpusPerNode + " GPUs (set prefillNodes and decodeNodes to give each role nodes of its own)"));
    } else if (prefill + decode > gpusPerNode) {
      out.add(Problem.error("spec.resources", "prefillWorkers x gpusPerPrefill + decodeWorkers x gpusPerDecode = "
          + (prefill + decode) + " GPUs, more than the one node of " + gpusPerNode
          + " GPUs both roles share without prefillNodes and decodeNodes"));
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
    if (spec.backend == null || Validator.gpusPerNode(cluster) < 1) {
      return;
    }
    Map<String, Object> args = spec.backend.args == null ? Map.of() : spec.backend.args;
    if (!r.disaggregated()) {
      if (r.aggWorkers == null || r.aggWorkers < 1 || (r.aggNodes != null && r.aggNodes < 1)) {
        return;
      }
      parallelism(out, args, Map.of(), "spec.backend.args", WorkerFit.of(r, Validator.gpusPerNode(cluster)).gpusPerWorker(), "each worker");
      return;
    }
    if (r.prefillWorkers == null || r.decodeWorkers == null || r.prefillWorkers < 1 || r.decodeWorkers < 1
        || (r.prefillNodes != null && r.prefillNodes < 1) || (r.decodeNodes != null && r.decodeNodes < 1)) {
      return;
    }
    DisaggregatedFit fit = DisaggregatedFit.of(r, Validator.gpusPerNode(cluster));
    parallelism(out, args, spec.backend.prefillArgs, "spec.backend.prefillArgs", fit.prefill().gpusPerWorker(), "each prefill worker");
    parallelism(out, args, spec.backend.decodeArgs, "spec.backend.decodeArgs", fit.decode().gpusPerWorker(), "each decode worker");
  }

  /**
   * The warning for one role, whose engines run with {@code roleArgs} (at {@code rolePath}) over
   * the shared {@code args}, on {@code perWorker} GPUs each.
   */
  private static void parallelism(List<Problem> out, Map<String, Object> args, Map<String, Object> roleArgs, String rolePath,
      long perWorker, String who) {
    Map<String, Object> role = roleArgs == null ? Map.of() : roleArgs;
    if (DATA_PARALLEL.stream().anyMatch(k -> argKey(args, k) != null || argKey(role, k) != null)) {
      return;
    }
    // A role's own tensor or pipeline degree replaces the shared one.
    String roleTp = firstKey(role, TENSOR_PARALLEL);
    String rolePp = firstKey(role, PIPELINE_PARALLEL);
    String tpKey = roleTp != null ? roleTp : firstKey(args, TENSOR_PARALLEL);
    String ppKey = rolePp != null ? rolePp : firstKey(args, PIPELINE_PARALLEL);
    Long tp = tpKey == null ? Long.valueOf(1) : positiveInt((roleTp != null ? role : args).get(tpKey));
    Long pp = ppKey == null ? Long.valueOf(1) : positiveInt((rolePp != null ? role : args).get(ppKey));
    if (tp == null || pp == null || perWorker < 1 || tp * pp == perWorker) {
      return;
    }
    String key = tpKey != null ? tpKey : ppKey;
    String base = (tpKey != null ? roleTp != null : rolePp != null) ? rolePath : "spec.backend.args";
    out.add(Problem.warning(key == null ? base : FieldPath.field(base, key),
        "tensor x pipeline parallel = " + tp + " x " + pp + " = " + (tp * pp) + " GPUs, but " + who + " is given " + perWorker
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
  private static void backend(List<Problem> out, BackendSpec b, boolean disaggregated) {
    if (b == null) {
      return;
    }
    engineFlags(out, "spec.backend.args", b.args);
    roleFlags(out, "spec.backend.prefillArgs", b.prefillArgs, disaggregated);
    roleFlags(out, "spec.backend.decodeArgs", b.decodeArgs, disaggregated);
    Rules.env(out, "spec.backend.env", b.env);
  }
  /** One role's engine flags (prefillArgs, decodeArgs): only a prefill/decode topology has the role. */
  private static void roleFlags(List<Problem> out, String p, Map<String, Object> args, boolean disaggregated) {
    if (args == null) {
      return;
    }
    if (!disaggregated) {
      out.add(Problem.error(p, "only for a prefill/decode topology (spec.resources.prefillWorkers and decodeWorkers); "
          + "with aggregated workers put the flags in spec.backend.args"));
    }
    engineFlags(out, p, args);
  }
  /** An engine flag map: flag names, the engine's vocabulary, and no flag srt-operator sets itself. */
  private static void engineFlags(List<Problem> out, String p, Map<String, Object> args) {
    Rules.flags(out, p, args);
    out.addAll(FlagVocabulary.check(FlagVocabulary.SGLANG_SERVER, p, args));
    Rules.managed(out, p, args, Validator.MANAGED_ENGINE_ARGS, "for the engine");
  }
  private static void dynamo(List<Problem> out, DynamoSpec d, RouterComparisonSpec spec) {
    if (d == null) {
      return;
    }
    int sources = (d.version != null ? 1 : 0) + (d.hash != null ? 1 : 0) + (d.wheel != null ? 1 : 0);
    if (!d.installOrDefault()) {
      if (sources != 0) {
        out.add(Problem.error("spec.dynamo.install", "install: false uses the Dynamo already on the host; remove version, hash and wheel"));
      }
    } else if (sources != 1) {
      out.add(Problem.error("spec.dynamo", sources == 0
          ? "set one Dynamo install source: version, hash or wheel"
          : "set exactly one Dynamo install source: version, hash or wheel (found " + sources + ")"));
    }
    if (d.hash != null && !Rules.COMMIT.matcher(d.hash).matches()) {
      out.add(Problem.error("spec.dynamo.hash", "must be a full 40-hex commit, not " + Echo.value(d.hash)));
    }
    Rules.requireAbsolute(out, "spec.dynamo.wheel", d.wheel, false);
    Rules.duration(out, "spec.dynamo.sidecarStartupTimeout", d.sidecarStartupTimeout);
    if (d.sidecarPort != null) {
      long workers = spec.resources == null ? 1 : WorkerFit.totalWorkers(spec.resources);
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
      // Without prefillNodes and decodeNodes both roles share one node.
      return r.prefillNodes == null && r.decodeNodes == null ? 1
          : (r.prefillNodes == null ? 0L : r.prefillNodes) + (r.decodeNodes == null ? 0L : r.decodeNodes);
    }
    return r.aggNodes == null ? 1 : r.aggNodes;
  }}
