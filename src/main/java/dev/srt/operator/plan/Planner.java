package dev.srt.operator.plan;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.SlurmSpec;
import dev.srt.operator.config.Durations;
import dev.srt.operator.config.Validator;
import dev.srt.operator.plan.frontends.DynamoFrontend;
import dev.srt.operator.plan.frontends.Frontend;
import dev.srt.operator.plan.frontends.Frontends;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * (comparison, cluster, arm, mode) -> {@link RunPlan}. Pure: no I/O, same input, same plan. The
 * input must have passed {@link Validator}.
 */
public final class Planner {
  public static final String DEFAULT_PYTHON = "python3";
  public static final String DEFAULT_WORK_DIR = "/tmp/srt-operator";
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofMinutes(30);
  public static final Duration DEFAULT_HEALTH_INTERVAL = Duration.ofSeconds(10);

  private Planner() {}

  /**
   * Plans one arm. {@code cluster} may be null (documented defaults: 8 GPUs per node, python3,
   * work dir /tmp/srt-operator, Slurm); {@code mode} may be null (the cluster's mode).
   */
  public static RunPlan plan(RouterComparison rc, GpuCluster cluster, String armName, Mode mode) {
    RouterComparisonSpec spec = rc.getSpec();
    ArmSpec arm = spec.arms.stream().filter(a -> a.name.equals(armName)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no arm named " + armName));
    GpuClusterSpec c = cluster == null || cluster.getSpec() == null ? new GpuClusterSpec() : cluster.getSpec();
    Mode m = mode != null ? mode : c.mode() != null ? c.mode() : Mode.SLURM;
    int gpusPerNode = Validator.gpusPerNode(cluster);
    int sidecarBase = spec.dynamo != null && spec.dynamo.sidecarPort != null ? spec.dynamo.sidecarPort : PortMap.SIDECAR_GRPC_BASE;
    Topology topology = Topology.of(spec.resources, gpusPerNode, sidecarBase);
    Duration timeout = Durations.parse(spec.healthCheck == null ? null : spec.healthCheck.timeout, DEFAULT_HEALTH_TIMEOUT);
    Duration interval = Durations.parse(spec.healthCheck == null ? null : spec.healthCheck.interval, DEFAULT_HEALTH_INTERVAL);
    Duration sidecarTimeout = Durations.parse(spec.dynamo == null ? null : spec.dynamo.sidecarStartupTimeout, timeout);
    ArmContext ctx = new ArmContext(rc.getMetadata().getName(), spec, arm, c, m, topology,
        c.python != null ? c.python : DEFAULT_PYTHON,
        c.workDir != null ? c.workDir : DEFAULT_WORK_DIR,
        servedModelName(spec),
        Math.max(1, timeout.toSeconds()), Math.max(1, interval.toSeconds()), Math.max(1, sidecarTimeout.toSeconds()));

    Frontend frontend = Frontends.of(arm.frontend.type);
    List<ProcessSpec> infra = frontend.infra(ctx);
    List<ProcessSpec> workers = frontend.workers(ctx);
    ProcessSpec router = frontend.router(ctx);
    // A router's further ports (a metrics listener) are its kind's: no worker of its node may take them.
    requireOwnPorts(List.of(router), workers);
    List<ProcessSpec> serving = new ArrayList<>(workers);
    serving.add(router);
    List<ProcessSpec> processes = new ArrayList<>(infra);
    List<Gate> gates = new ArrayList<>();
    if (infra.isEmpty()) {
      processes.addAll(serving);
    } else {
      // Nothing else starts before its infra serves: a Dynamo process that finds no etcd exits.
      requireOwnPorts(infra, serving);
      gates.add(Gates.infraReady(infra));
      serving.forEach(p -> processes.add(p.afterGate() == null ? p.startingAfter(Gates.INFRA_READY) : p));
    }
    Ladder ladder = Ladder.of(spec.workload);
    List<ProcessSpec> benchmarks = Workload.processes(ctx, ladder);
    processes.addAll(benchmarks);
    gates.addAll(frontend.readiness(ctx, workers));
    gates.add(Gates.canary(ctx));

    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("frontendKind", frontend.type());
    facts.putAll(frontend.facts(ctx));
    boolean scrape = ctx.observability();
    return new RunPlan(ctx.comparison(), arm.name, m, frontend.type(), topology,
        new RunPlan.Settings(ctx.python(), ctx.workDir(), ctx.healthTimeoutSeconds(), ctx.healthIntervalSeconds(),
            ctx.sidecarStartupTimeoutSeconds(), Workload.RESULTS_DIR, scrape),
        new TreeMap<>(c.env == null ? Map.of() : c.env),
        secretEnvNames(c, spec),
        c.path == null ? List.of() : List.copyOf(c.path),
        frontend.builds(ctx), List.copyOf(processes), List.copyOf(gates),
        m == Mode.SLURM ? slurm(c.slurm, topology) : null,
        container(c, spec, arm),
        facts, frontend.preflight(ctx), FactCapture.of(ctx, frontend.routerFacts(ctx), workers), ladder,
        spec.slo, BenchmarkDeadlines.of(spec, benchmarks.size()));
  }

  /**
   * The planner's own guard (the validator reports the same collision with field paths): an infra
   * service (or the router) never shares a port with another process of its node.
   */
  private static void requireOwnPorts(List<ProcessSpec> infra, List<ProcessSpec> others) {
    for (ProcessSpec service : infra) {
      for (ProcessSpec other : others) {
        if (other.node() == service.node()) {
          service.ports().values().stream().filter(other.ports()::containsValue).findFirst().ifPresent(port -> {
            throw new IllegalArgumentException(service.name() + " and " + other.name() + " would both bind port " + port);
          });
        }
      }
    }
    if (infra.stream().flatMap(p -> p.ports().values().stream()).distinct().count()
        != infra.stream().mapToLong(p -> p.ports().size()).sum()) {
      throw new IllegalArgumentException("two infra services would bind one port");
    }
  }

  /** The names of the secret variables, the cluster's then the comparison's: values are never part of a plan. */
  public static List<String> secretEnvNames(GpuClusterSpec cluster, RouterComparisonSpec spec) {
    List<String> names = new ArrayList<>();
    Stream.of(cluster.secretEnv, spec.secretEnv).filter(Objects::nonNull).flatMap(List::stream).map(v -> v.name)
        .filter(n -> !names.contains(n)).forEach(names::add);
    return List.copyOf(names);
  }

  /** The served model name: spec.model.servedModelName, else the model directory's name. */
  public static String servedModelName(RouterComparisonSpec spec) {
    if (spec.model.servedModelName != null) {
      return spec.model.servedModelName;
    }
    Path name = Path.of(spec.model.path).getFileName();
    return name == null ? spec.model.path : name.toString();
  }

  private static RunPlan.SlurmPlan slurm(SlurmSpec s, Topology t) {
    SlurmSpec slurm = s == null ? new SlurmSpec() : s;
    return new RunPlan.SlurmPlan(t.nodes(), t.gpusUsedPerNode(), slurm.gres == null || slurm.gres,
        slurm.partition, slurm.account, slurm.timeLimit == null ? "01:00:00" : slurm.timeLimit,
        new TreeMap<>(slurm.sbatchDirectives == null ? Map.of() : slurm.sbatchDirectives),
        new TreeMap<>(slurm.srunOptions == null ? Map.of() : slurm.srunOptions));
  }

  /**
   * The container, with the model mounted at the same path next to the configured mounts, and the
   * arm's host inputs (router source or binary, policy catalog path, Dynamo wheel) for the stages
   * that read them.
   */
  private static RunPlan.ContainerPlan container(GpuClusterSpec c, RouterComparisonSpec spec, ArmSpec arm) {
    if (c.container == null || c.container.runtime == null || "none".equals(c.container.runtime)) {
      return null;
    }
    List<String> mounts = new ArrayList<>(List.of(spec.model.path + ":" + spec.model.path));
    if (c.container.mounts != null) {
      mounts.addAll(c.container.mounts);
    }
    List<String> inputs = new ArrayList<>();
    inputs.add(arm.frontend.source);
    inputs.add(arm.frontend.binary);
    if (DynamoFrontend.TYPE.equals(arm.frontend.type)) {
      inputs.add(spec.dynamo.wheel);
      inputs.add(arm.dynamo == null || arm.dynamo.policyCatalog == null ? null : arm.dynamo.policyCatalog.path);
    }
    List<String> buildMounts = inputs.stream().filter(p -> p != null && p.startsWith("/")).distinct().map(p -> p + ":" + p).toList();
    return new RunPlan.ContainerPlan(c.container.runtime, c.container.image, List.copyOf(mounts), buildMounts);
  }
}
