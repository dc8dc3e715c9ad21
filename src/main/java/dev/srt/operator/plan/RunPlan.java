package dev.srt.operator.plan;

import dev.srt.operator.api.SloSpec;
import dev.srt.operator.api.Mode;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * Everything one run of one arm does, as data: the input of both script renderers, printed by
 * {@code srt-operator plan} (schema in docs/plan-format.md). Immutable; built by {@link Planner}.
 *
 * <p>{@code preflight} lists the programs checked before the first build stage, so that a missing
 * one fails the run in seconds, not after a build.
 *
 * <p>{@code factCapture} says what the run records about itself before its benchmark
 * ({@code facts.json}); {@code facts} are derived values of the plan itself, for people to read.
 *
 * <p>{@code ladder} is the load ladder the benchmark climbs, one process per level; null for one
 * measurement at the workload's own load. {@code slo} is what a good request meets (spec.slo), for
 * reading the run's goodput; null without one. {@code benchmarkDeadlines} says when the script
 * stops each benchmark that has not ended (spec.execution.maxDuration); null in the plans of runs
 * made before it existed.
 *
 * <p>{@code secretEnv} holds only the NAMES of the variables whose values come from Secrets: the
 * values are written next to the script when the run is submitted (host layer), never planned.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunPlan(
    String comparison,
    String arm,
    Mode mode,
    String frontend,
    Topology topology,
    Settings settings,
    Map<String, String> env,
    List<String> secretEnv,
    List<String> path,
    List<BuildStage> builds,
    List<ProcessSpec> processes,
    List<Gate> gates,
    SlurmPlan slurm,
    ContainerPlan container,
    Map<String, Object> facts,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Preflight> preflight,
    FactCapture factCapture,
    Ladder ladder,
    SloSpec slo,
    BenchmarkDeadlines benchmarkDeadlines) {

  /**
   * A program the run needs on node {@code node} (in its container, with one), checked before
   * anything is built; {@code field} is where the user names it (e.g. the GpuCluster's
   * {@code spec.infra.etcd}).
   */
  public record Preflight(String program, int node, String field) {}

  /** Budgets and locations shared by the whole run. */
  public record Settings(
      String python, String workDir, long healthTimeoutSeconds, long healthIntervalSeconds,
      long sidecarStartupTimeoutSeconds, String resultsDir, boolean scrapeMetrics) {}

  /** The batch job's shape (Slurm mode only). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SlurmPlan(
      int nodes, int gpusPerNode, boolean gres, String partition, String account, String timeLimit,
      Map<String, String> directives, Map<String, String> srunOptions) {}

  /**
   * The container every process and build stage runs in, if any. {@code mounts} are bind mounts
   * of every container of the run; {@code buildMounts} are the arm's own host inputs (a source
   * tree, a catalog, a wheel, a router binary), mounted only where they are read (build stages
   * and the router), so worker commands stay identical across arms.
   */
  public record ContainerPlan(String runtime, String image, List<String> mounts, List<String> buildMounts) {}

  /** The plan as {@code srt-operator plan} prints it: the run's {@code plan.json}. */
  public String json() {
    try {
      return dev.srt.operator.base.Mappers.json().writerWithDefaultPrettyPrinter().writeValueAsString(this) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a plan is always JSON", e);
    }
  }

  public List<ProcessSpec> processes(Role role) {
    return processes.stream().filter(p -> p.role() == role).toList();
  }

  public ProcessSpec process(String name) {
    return processes.stream().filter(p -> p.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no process " + name));
  }

  /** The processes that make up the workers: workers, or engines with their sidecars. */
  public List<ProcessSpec> workerProcesses() {
    return processes.stream()
        .filter(p -> p.role() == Role.WORKER || p.role() == Role.ENGINE || p.role() == Role.SIDECAR)
        .toList();
  }
}
