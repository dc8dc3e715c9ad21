package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.srt.operator.api.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run records about itself once every gate has passed and before the benchmark: the
 * {@code facts.json} of its run directory (docs/run-protocol.md#facts). The plan only says where
 * to look; the script asks the engines, the nodes and the files themselves, so that two runs can
 * be shown to have run the same model, engines, software and workload, whatever their specs said.
 *
 * @param engines every worker's engine, in topology order, with the URL of its own server info
 * @param nodes the nodes of the allocation (0 .. nodes-1): each is asked for its GPUs, driver,
 *     CUDA, kernel and {@code packages}
 * @param packages the Python distributions asked on every node (the engines' software)
 * @param router the router's own identity: everything that may differ between arms
 * @param model the model files hashed (never the weights) and the name the model is served under
 * @param workload the benchmark, its input file and seed
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FactCapture(List<Engine> engines, int nodes, List<String> packages, Router router, Model model, WorkloadFacts workload) {
  /** The model files a run hashes, relative to the model directory: not the weights, their index. */
  public static final List<String> MODEL_FILES = List.of("config.json", "tokenizer.json", "tokenizer_config.json",
      "generation_config.json", "model.safetensors.index.json");
  /** The distributions whose versions every node reports. */
  public static final List<String> ENGINE_PACKAGES = List.of("sglang", "torch");

  public FactCapture {
    engines = List.copyOf(engines);
    packages = List.copyOf(packages);
  }

  /** What arm {@code ctx}'s runs capture, given its router kind's identity and its worker processes. */
  public static FactCapture of(ArmContext ctx, Router router, List<ProcessSpec> workers) {
    List<Engine> engines = new ArrayList<>();
    for (WorkerSlot w : ctx.topology().workers()) {
      // An SGLang engine declares the worker's HTTP server as its endpoint; the in-process Dynamo worker declares its system port.
      String server = ctx.workerEndpoint(w).url();
      boolean servesSglang = workers.stream().anyMatch(p -> p.node() == w.node() && p.endpoint() != null && server.equals(p.endpoint().url()));
      engines.add(servesSglang ? new Engine(w.name(), w.node(), ctx.workerUrl(w) + "/server_info", null)
          : new Engine(w.name(), w.node(), null, "the in-process Dynamo worker (dynamo.sglang) serves no SGLang HTTP API to ask"));
    }
    List<String> files = new ArrayList<>(MODEL_FILES.stream().map(f -> ctx.modelPath().replaceAll("/+$", "") + "/" + f).toList());
    if (!files.contains(ctx.tokenizerPath())) {
      files.add(ctx.tokenizerPath());
    }
    return new FactCapture(engines, ctx.topology().nodes(), ENGINE_PACKAGES, router,
        new Model(ctx.modelPath(), files, ctx.servedModelName()), workload(ctx.spec().workload));
  }

  private static WorkloadFacts workload(WorkloadSpec w) {
    String tool = w == null || w.tool == null ? "bench-serving" : w.tool;
    int seed = w == null || w.seed == null ? Workload.DEFAULT_SEED : w.seed;
    return switch (tool) {
      case "aiperf" -> new WorkloadFacts(tool, "aiperf", Flags.get(w.args, "input-file"), seed);
      case "custom" -> new WorkloadFacts(tool, null, null, seed);
      default -> new WorkloadFacts(tool, "sglang", w == null ? null : Flags.get(w.args, "dataset-path"), seed);
    };
  }

  /**
   * One worker's engine. {@code serverInfoUrl} is the engine's {@code /server_info} (the script
   * falls back to {@code /get_server_info}); null with {@code unknown} saying why the engine has
   * none to ask (Dynamo's in-process worker serves no SGLang HTTP API).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Engine(String name, int node, String serverInfoUrl, String unknown) {}

  /**
   * The router's identity. {@code binary}: an executable to hash and ask {@code --version} (a path
   * or a name on PATH); {@code wheels}: wheel files, or directories whose {@code *.whl} are hashed;
   * {@code packages}: distributions whose versions the router's Python reports, with
   * {@code pythonPath} in front of its path (the run's own Dynamo install); the policy catalog's
   * declared {@code catalogRev} or, for a local catalog, {@code catalogPath}, whose files are hashed.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Router(String kind, String binary, List<String> wheels, List<String> packages, String pythonPath, String catalogRev,
      String catalogPath) {
    public Router {
      wheels = List.copyOf(wheels);
      packages = List.copyOf(packages);
    }

    /** A router identified by its kind alone. */
    public static Router kind(String kind) {
      return new Router(kind, null, List.of(), List.of(), null, null, null);
    }
  }

  /** {@code files}: absolute paths (the model directory's {@link #MODEL_FILES}, and a tokenizer set apart). */
  public record Model(String path, List<String> files, String servedModelName) {
    public Model {
      files = List.copyOf(files);
    }
  }

  /**
   * {@code tool}: bench-serving, aiperf or custom; {@code versionPackage}: the distribution whose
   * version is the tool's (null for a custom command); {@code dataset}: the file the tool reads its
   * prompts from, null when it generates them.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record WorkloadFacts(String tool, String versionPackage, String dataset, int seed) {}
}
