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
 * @param workload the benchmark, its input file, seed and tokenizer
 * @param engineSeed the sampling seed every engine was started with ({@code --random-seed}), which
 *     each must report back
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FactCapture(List<Engine> engines, int nodes, List<String> packages, Router router, Model model, WorkloadFacts workload,
    String engineSeed) {
  /**
   * The model files a run hashes, relative to the model directory: not the weights, their index;
   * every tokenizer file (a SentencePiece model, a BPE vocabulary, the special tokens, the chat
   * template kept apart from tokenizer_config.json), since each changes what the engine is fed.
   */
  public static final List<String> MODEL_FILES = List.of("config.json", "tokenizer.json", "tokenizer_config.json",
      "generation_config.json", "model.safetensors.index.json", "tokenizer.model", "special_tokens_map.json",
      "chat_template.jinja", "vocab.json", "merges.txt");
  /**
   * The distributions whose versions every node reports: the engine, its framework and kernels,
   * the tokenizer library and the collective and convolution libraries torch loads.
   */
  public static final List<String> ENGINE_PACKAGES = List.of("sglang", "torch", "sgl-kernel", "flashinfer-python", "triton",
      "transformers", "nvidia-nccl-cu12", "nvidia-cudnn-cu12");

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
        new Model(ctx.modelPath(), files, ctx.servedModelName()), workload(ctx.spec().workload), SglangEngine.randomSeed(ctx));
  }

  private static WorkloadFacts workload(WorkloadSpec w) {
    String tool = w == null || w.tool == null ? "bench-serving" : w.tool;
    int seed = w == null || w.seed == null ? Workload.DEFAULT_SEED : w.seed;
    String tokenizer = w == null ? null : Flags.get(w.args, "tokenizer");
    return switch (tool) {
      case "aiperf" -> new WorkloadFacts(tool, "aiperf", Flags.get(w.args, "input-file"), seed, tokenizer);
      case "custom" -> new WorkloadFacts(tool, null, null, seed, null);
      default -> new WorkloadFacts(tool, "sglang", w == null ? null : Flags.get(w.args, "dataset-path"), seed, tokenizer);
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
      String catalogPath, List<String> files) {
    public Router {
      wheels = List.copyOf(wheels);
      packages = List.copyOf(packages);
      // a plan.json written before routers listed their files has none
      files = files == null ? List.of() : List.copyOf(files);
    }

    public Router(String kind, String binary, List<String> wheels, List<String> packages, String pythonPath, String catalogRev,
        String catalogPath) {
      this(kind, binary, wheels, packages, pythonPath, catalogRev, catalogPath, List.of());
    }

    /** A router identified by its kind alone. */
    public static Router kind(String kind) {
      return new Router(kind, null, List.of(), List.of(), null, null, null);
    }

    /** This router reading {@code more} files of its own (a tokenizer, a policy configuration), which are hashed. */
    public Router withFiles(List<String> more) {
      List<String> all = new ArrayList<>(files);
      more.stream().filter(f -> f != null && !all.contains(f)).forEach(all::add);
      return new Router(kind, binary, wheels, packages, pythonPath, catalogRev, catalogPath, all);
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
   * prompts from, null when it generates them; {@code tokenizer}: the tokenizer the tool counts
   * tokens with when given apart from the model's ({@code --tokenizer}), a file or directory.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record WorkloadFacts(String tool, String versionPackage, String dataset, int seed, String tokenizer) {
    public WorkloadFacts(String tool, String versionPackage, String dataset, int seed) {
      this(tool, versionPackage, dataset, seed, null);
    }
  }
}
