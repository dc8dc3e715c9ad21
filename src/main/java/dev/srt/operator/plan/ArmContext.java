package dev.srt.operator.plan;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.nio.file.Path;

/**
 * What a {@link dev.srt.operator.plan.frontends.Frontend} needs to plan one arm: the shared spec,
 * the arm, the effective cluster settings and the topology, plus the derived names every part
 * must agree on.
 */
public record ArmContext(
    String comparison,
    RouterComparisonSpec spec,
    ArmSpec arm,
    GpuClusterSpec cluster,
    Mode mode,
    Topology topology,
    String python,
    String workDir,
    String servedModelName,
    long healthTimeoutSeconds,
    long healthIntervalSeconds,
    long sidecarStartupTimeoutSeconds) {

  /**
   * The address of node {@code n} as seen from the first node. Direct runs are on one host; in a
   * Slurm job the address is known only at run time, so the plan carries {@code {{node:n}}}, which
   * the Slurm script resolves from Slurm's NodeAddr.
   */
  public String nodeHost(int n) {
    return mode == Mode.DIRECT ? "127.0.0.1" : "{{node:" + n + "}}";
  }

  /** A worker's SGLang HTTP server: /health and /metrics on its HTTP port. */
  public Endpoint workerEndpoint(WorkerSlot w) {
    return Endpoint.http(nodeHost(w.node()), w.ports().http());
  }

  /** Base URL of a worker's HTTP server. */
  public String workerUrl(WorkerSlot w) {
    return workerEndpoint(w).url();
  }

  /**
   * The router's server, on the first node, where the script's gates and the benchmark run too;
   * {@code healthPath} is what says it is ready.
   */
  public Endpoint routerEndpoint(String healthPath) {
    return new Endpoint("127.0.0.1", PortMap.ROUTER, healthPath, null, "/metrics", null);
  }

  /** The router's base URL. */
  public String routerUrl() {
    return routerEndpoint("/health").url();
  }

  public String modelPath() {
    return spec.model.path;
  }

  public String tokenizerPath() {
    return spec.model.tokenizerPath != null ? spec.model.tokenizerPath : spec.model.path + "/tokenizer.json";
  }

  public boolean observability() {
    return spec.observability != null && spec.observability.enabledOrDefault();
  }

  public String cacheDir(String... parts) {
    Path p = Path.of(workDir, "cache");
    for (String part : parts) {
      p = p.resolve(part);
    }
    return p.toString();
  }
}
