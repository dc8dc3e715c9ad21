package dev.srt.operator.report;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.BackendSpec;
import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.WorkloadSpec;
import dev.srt.operator.plan.Flags;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.plan.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What every arm shared, so that a reader can tell what the verdicts are about: model, topology,
 * engine and its flags, workload, Dynamo and router builds, cluster and GPU type, and how the runs
 * were ordered and repeated.
 */
final class HeldConstant {
  /** One fact: {@code model}, {@code /models/Qwen3-32B-FP8 (served as Qwen/Qwen3-32B-FP8)}. */
  record Fact(String label, String value) {}

  private HeldConstant() {}

  static List<Fact> of(ReportContext ctx, ArmDifferences differences) {
    RouterComparisonSpec spec = ctx.comparison().getSpec();
    List<Fact> facts = new ArrayList<>();
    add(facts, "model", spec.model == null ? null
        : spec.model.path + " (served as " + Planner.servedModelName(spec) + ")"
            + (spec.model.tokenizerPath == null ? "" : ", tokenizer " + spec.model.tokenizerPath));
    add(facts, "topology", topology(spec.resources, differences.anyPlan(), ctx.cluster() != null));
    add(facts, "engine", engine(spec.backend));
    add(facts, "engine env", env(spec.backend == null ? null : spec.backend.env));
    add(facts, "KV events", spec.backend == null || spec.backend.kvEvents == null ? null
        : (spec.backend.kvEvents.enabledOrDefault() ? "on" : "off") + optional(", publisher ", spec.backend.kvEvents.publisher)
            + optional(", topic ", spec.backend.kvEvents.topic));
    add(facts, "workload", workload(spec.workload));
    add(facts, "Dynamo", dynamo(spec.dynamo));
    add(facts, "routers", routers(spec.arms));
    cluster(facts, ctx);
    add(facts, "execution", execution(spec.execution, ctx.report().baseline, ctx.report().seed));
    add(facts, "observability", spec.observability == null ? null : spec.observability.enabledOrDefault() ? "metrics scraped" : "off");
    add(facts, "health check", spec.healthCheck == null ? null
        : "timeout " + orDefault(spec.healthCheck.timeout, "30m") + ", every " + orDefault(spec.healthCheck.interval, "10s"));
    return facts;
  }

  /** Without the cluster the plan assumes 8 GPUs per node: then the node size is not stated. */
  private static String topology(ResourcesSpec r, RunPlan plan, boolean clusterKnown) {
    if (plan != null) {
      Topology t = plan.topology();
      return t.workers().size() + " aggregated worker" + (t.workers().size() == 1 ? "" : "s") + " × " + t.gpusPerWorker() + " GPU"
          + (t.gpusPerWorker() == 1 ? "" : "s") + " on " + t.nodes() + " node" + (t.nodes() == 1 ? "" : "s")
          + (clusterKnown ? " of " + t.gpusPerNode() + " GPUs" : "");
    }
    if (r == null) {
      return null;
    }
    return "aggNodes " + r.aggNodes + ", aggWorkers " + r.aggWorkers + ", gpusPerWorker " + r.gpusPerWorker;
  }

  private static String engine(BackendSpec b) {
    String type = b == null || b.type == null ? "sglang" : b.type;
    List<String> flags = Flags.render(b == null ? null : b.args);
    return type + (flags.isEmpty() ? "" : " " + String.join(" ", flags));
  }

  private static String env(Map<String, String> env) {
    if (env == null || env.isEmpty()) {
      return null;
    }
    return env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
  }

  private static String workload(WorkloadSpec w) {
    if (w == null) {
      return null;
    }
    String tool = orDefault(w.tool, "bench-serving");
    String args = "custom".equals(tool) ? " " + w.command : Flags.render(w.args).stream().map(s -> " " + s).collect(Collectors.joining());
    return tool + args + ", seed " + (w.seed == null ? 42 : w.seed);
  }

  private static String dynamo(DynamoSpec d) {
    if (d == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    if (d.version != null) {
      parts.add("release " + d.version);
    }
    if (d.hash != null) {
      parts.add("commit " + d.hash + (d.source == null || d.source.git == null ? "" : " of " + d.source.git));
    }
    if (d.wheel != null) {
      parts.add("wheel " + d.wheel);
    }
    if (d.eventPlane != null) {
      parts.add("event plane " + d.eventPlane);
    }
    if (d.requestPlane != null) {
      parts.add("request plane " + d.requestPlane);
    }
    return parts.isEmpty() ? "the default installation" : String.join(", ", parts);
  }

  /** Each arm's router and where it is built from (its routing settings are in the diff). */
  private static String routers(List<ArmSpec> arms) {
    return arms.stream().map(a -> a.name + ": " + a.frontend.type
        + (a.frontend.source != null ? " built from " + a.frontend.source : a.frontend.binary != null ? " binary " + a.frontend.binary : "")
        + (a.dynamo != null && a.dynamo.policyCatalog != null && a.dynamo.policyCatalog.rev != null
            ? ", policy catalog " + orDefault(a.dynamo.policyCatalog.git, a.dynamo.policyCatalog.path) + " at " + a.dynamo.policyCatalog.rev
            : ""))
        .collect(Collectors.joining("; "));
  }

  private static void cluster(List<Fact> facts, ReportContext ctx) {
    if (ctx.cluster() == null || ctx.cluster().getSpec() == null) {
      add(facts, "cluster", ctx.comparison().getSpec().clusterRef == null ? null
          : ctx.comparison().getSpec().clusterRef.name + " (its spec was not read)");
      return;
    }
    GpuClusterSpec c = ctx.cluster().getSpec();
    String name = ctx.cluster().getMetadata() == null ? "" : ctx.cluster().getMetadata().getName() + ": ";
    String where = c.isLocal() || c.ssh == null ? "local" : "ssh " + (c.ssh.user == null ? "" : c.ssh.user + "@") + c.ssh.host
        + (c.ssh.port == null ? "" : ":" + c.ssh.port);
    add(facts, "cluster", name + c.mode + " over " + where + optional(", Slurm partition ", c.slurm == null ? null : c.slurm.partition)
        + optional(", work dir ", c.workDir));
    add(facts, "GPU", orDefault(c.gpuType, "not stated") + ", " + (c.gpusPerNode == null ? 8 : c.gpusPerNode) + " per node");
    add(facts, "container", c.container == null || c.container.runtime == null || "none".equals(c.container.runtime) ? null
        : c.container.runtime + optional(" ", c.container.image));
  }

  private static String execution(ExecutionSpec e, String baseline, Long seed) {
    ExecutionSpec x = e == null ? new ExecutionSpec() : e;
    return "order " + orDefault(x.order, "declared") + (seed == null ? "" : " (seed " + seed + ")") + ", " + x.repetitionsOrDefault()
        + " repetition" + (x.repetitionsOrDefault() == 1 ? "" : "s") + " per arm, baseline " + baseline
        + optional(", warm-up requests ", x.warmupRequests == null ? null : x.warmupRequests.toString())
        + ", max failed ratio " + x.maxFailedRatioOrDefault();
  }

  private static String optional(String prefix, String value) {
    return value == null || value.isEmpty() ? "" : prefix + value;
  }

  private static String orDefault(String value, String otherwise) {
    return value == null ? otherwise : value;
  }

  private static void add(List<Fact> facts, String label, String value) {
    if (value != null) {
      facts.add(new Fact(label, value));
    }
  }
}
