package dev.srt.operator.importer;

import dev.srt.operator.api.Api;
import dev.srt.operator.api.Mode;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code srt-operator import}: srtctl recipes, one per arm, into one RouterComparison (and a
 * GpuCluster skeleton). The recipes must agree on everything outside routing ({@link Fairness});
 * every field is mapped, or reported as ignored with its reason; {@code $NAME}s are resolved only
 * from the variables given ({@link EnvReferences}), a secret only ever becomes a secretEnv
 * reference; and what is written is validated as {@code validate} would, or nothing is.
 */
public final class RecipeImport {
  static final String API_VERSION = "srt.dev/v1alpha1";
  /** The order the spec is written in: that of the examples and the config reference. */
  private static final List<String> SPEC_ORDER = List.of("clusterRef", "model", "resources", "backend", "dynamo", "observability",
      "healthCheck", "workload", "secretEnv", "arms");
  private static final List<String> CLUSTER_ORDER = List.of("mode", "transport", "ssh", "workDir", "gpusPerNode", "gpuType", "python",
      "container", "infra", "slurm", "allowCustomWorkloads");

  /**
   * What an import produced. When {@link #refused()}, the YAML is null and {@link #problems()} says
   * why; {@link #ignored()} and {@link #notes()} are to be shown either way. The cluster's YAML is
   * null when it was not asked for.
   */
  public record Result(String comparisonYaml, String clusterYaml, List<Problem> problems, List<String> ignored, List<String> notes) {
    public boolean refused() {
      return problems.stream().anyMatch(Problem::isError);
    }
  }

  private RecipeImport() {}

  /** As {@link #run(List, String, Map, boolean, String)}, with the GpuCluster skeleton and no trace directory. */
  public static Result run(List<Path> files, String name, Map<String, String> env) {
    return run(files, name, env, true, null);
  }

  /**
   * @param name the comparison's name, or null for the recipes' directory name
   * @param env the variables given with --env, and their values: the only ones resolved
   * @param withCluster whether the GpuCluster skeleton is written (and so validated, and the comparison against it)
   * @param traceDir the GPU host's directory of srtctl's benchmark traces (mooncake-router), or null
   */
  public static Result run(List<Path> files, String name, Map<String, String> env, boolean withCluster, String traceDir) {
    EnvReferences refs = new EnvReferences(env);
    Result r = map(files, name, refs, traceDir);
    if (!r.refused()) {
      r = validated(r, withCluster);
    }
    if (!withCluster) {
      r = new Result(r.comparisonYaml(), null, r.problems(), r.ignored(), r.notes());
    }
    return Redaction.of(refs.resolved()).apply(r);
  }

  /**
   * What is written, validated as {@code validate -f comparison.yaml [--cluster cluster.yaml]}
   * would: every error refuses the import, named with the object it is in.
   */
  private static Result validated(Result r, boolean withCluster) {
    String comparison = r.comparisonYaml();
    String text = withCluster ? comparison + "---\n" + r.clusterYaml() : comparison;
    long comparisonLines = comparison.lines().count();
    List<Problem> invalid = LoadedResources.parse("imported", text).problems().stream().filter(Problem::isError)
        .map(p -> Problem.error(p.path(), p.message() + (p.location() != null && p.location().line() > comparisonLines
            ? " (in the imported GpuCluster)" : " (in the imported RouterComparison)"))).toList();
    return invalid.isEmpty() ? r : refused(invalid, r.ignored(), r.notes());
  }

  /** The mapping alone, before what it writes is validated. */
  static Result map(List<Path> files, String name, EnvReferences refs, String traceDir) {
    List<Problem> problems = new ArrayList<>(refs.problems());
    if (!problems.isEmpty()) {
      return refused(problems, List.of(), List.of());
    }
    List<Recipe> recipes = new ArrayList<>();
    for (Path f : files) {
      Recipe r = Recipe.load(f, refs, problems);
      if (r != null) {
        recipes.add(r);
      }
    }
    if (!problems.isEmpty()) {
      return refused(problems, List.of(), List.of());
    }
    List<Problem> unfair = Fairness.differences(recipes);
    if (!unfair.isEmpty()) {
      List<Problem> out = new ArrayList<>();
      out.add(Problem.error("", "refused: the recipes differ outside the routing fields (name, frontend, dynamo), so their arms "
          + "would not compare routers alone; write these the same in every recipe:"));
      out.addAll(unfair);
      return refused(out, List.of(), List.of());
    }
    Draft d = new Draft();
    Recipe first = recipes.get(0);
    first.leaves.values().stream().filter(l -> !Fairness.routing(l.path())).forEach(l -> SharedFields.map(l, d));
    Finish.healthCheck(first, d);
    Finish.kvEvents(first, d, disaggregated(d.spec));
    Finish.workload(first, d, refs, traceDir);
    ArrayNode arms = Draft.NODES.arrayNode();
    List<Recipe> dynamoArms = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Recipe r : recipes) {
      ObjectNode arm = ArmFields.map(r, d);
      String armName = arm.path("name").asText();
      if (arm.has("name") && !names.add(armName)) {
        d.problems.add(Problem.error("name", "arm name " + armName + " is already used by another recipe; every arm needs its own")
            .at(r.locate("name")));
      }
      if ("dynamo".equals(arm.path("frontend").path("type").asText())) {
        dynamoArms.add(r);
        // srtctl gives the recipe's environment to Dynamo frontends too (not to other routers).
        first.under("environment").stream().filter(l -> SharedFields.passedOn(l.key()))
            .forEach(l -> d.env(arm, "frontend.env", l));
      }
      arms.add(arm);
    }
    Finish.dynamo(dynamoArms, d);
    SrtctlVariables.infraPorts(recipes, dynamoArms, d);
    if (d.problems.stream().anyMatch(Problem::isError)) {
      return refused(d.problems, d.ignored(), d.notes);
    }
    String comparisonName = name != null ? name : defaultName(files);
    ObjectNode cluster = cluster(first, d, comparisonName);
    secretEnv(d, comparisonName);
    ObjectNode spec = ordered(d.spec, SPEC_ORDER);
    spec.putObject("clusterRef").put("name", cluster.path("metadata").path("name").asText());
    spec.set("arms", arms);
    spec = ordered(spec, SPEC_ORDER);
    ObjectNode comparison = object("RouterComparison", comparisonName, spec);
    return new Result(yaml(comparison), yaml(cluster), d.problems, d.ignored(), d.notes);
  }

  /** The secret variables as spec.secretEnv, all keys of one Secret named after the comparison. */
  private static void secretEnv(Draft d, String comparisonName) {
    if (d.secretEnv.isEmpty()) {
      return;
    }
    String secret = comparisonName + "-secrets";
    ArrayNode list = d.spec.putArray("secretEnv");
    d.secretEnv.forEach((variable, key) -> {
      ObjectNode e = list.addObject();
      e.put("name", variable);
      e.putObject("secretKeyRef").put("name", secret).put("key", key);
    });
    d.notes.add("spec.secretEnv: create the Secret " + secret + " with the keys " + String.join(", ", new java.util.TreeSet<>(d.secretEnv.values()))
        + " (kubectl create secret generic " + secret + " --from-literal=KEY=..., then kubectl label secret " + secret + " "
        + Api.SECRET_ENV_LABEL + "=true: the operator reads only Secrets so labelled), or give apply the values with --secret-env NAME");
  }

  private static Result refused(List<Problem> problems, List<String> ignored, List<String> notes) {
    return new Result(null, null, List.copyOf(problems), ignored, List.copyOf(notes));
  }

  private static boolean disaggregated(ObjectNode spec) {
    JsonNode r = spec.path("resources");
    return List.of("prefillNodes", "decodeNodes", "prefillWorkers", "decodeWorkers", "gpusPerPrefill", "gpusPerDecode").stream().anyMatch(r::has);
  }

  /** The recipes' directory (srtctl keeps one comparison per directory), as a DNS label. */
  static String defaultName(List<Path> files) {
    Path dir = files.get(0).toAbsolutePath().getParent();
    String label = dir == null || dir.getFileName() == null ? "" : ArmFields.armName(dir.getFileName().toString());
    return label.isEmpty() ? "imported" : label;
  }

  /**
   * A GpuCluster to start from: what the recipes say about the machines (GPU type and count,
   * container image, mounts, the etcd/NATS port overrides, Slurm settings). SSH access is left to
   * fill in.
   */
  private static ObjectNode cluster(Recipe first, Draft d, String comparisonName) {
    ObjectNode c = d.cluster;
    boolean direct = first.get("environment." + SrtctlVariables.LOCAL_IMAGE) != null || first.get("environment." + SrtctlVariables.SGLANG_SOURCE) != null;
    c.put("mode", (direct ? Mode.DIRECT : Mode.SLURM).id());
    c.put("transport", "ssh");
    ObjectNode ssh = c.putObject("ssh");
    ssh.put("host", "gpu-host.example.internal");
    ssh.put("user", "bench");
    String name = ArmFields.armName(c.path("gpuType").asText("gpu") + "-" + (direct ? "host" : "cluster"));
    ssh.putObject("privateKeySecretRef").put("name", name + "-ssh").put("key", "id_ed25519");
    ssh.putObject("knownHostsSecretRef").put("name", name + "-ssh").put("key", "known_hosts");
    c.put("workDir", "/scratch/srt-operator");
    c.put("python", "python3");
    if (c.has("container")) {
      ((ObjectNode) c.get("container")).put("runtime", direct ? "docker" : "pyxis");
      c.set("container", ordered((ObjectNode) c.get("container"), List.of("runtime", "image", "mounts")));
    }
    if ("custom".equals(d.spec.path("workload").path("tool").asText())) {
      c.put("allowCustomWorkloads", true); // the operator refuses custom commands on a cluster that does not allow them
    }
    if (direct) {
      c.remove("slurm");
    }
    d.notes.add("the GpuCluster skeleton's ssh (host, user, the Secret with its key and known hosts) and workDir are placeholders: "
        + "fill them in");
    return object("GpuCluster", name, ordered(c, CLUSTER_ORDER));
  }

  private static ObjectNode object(String kind, String name, ObjectNode spec) {
    ObjectNode o = Draft.NODES.objectNode();
    o.put("apiVersion", API_VERSION);
    o.put("kind", kind);
    o.putObject("metadata").put("name", name);
    o.set("spec", spec);
    return o;
  }

  private static ObjectNode ordered(ObjectNode in, List<String> order) {
    ObjectNode out = Draft.NODES.objectNode();
    order.stream().filter(in::has).forEach(k -> out.set(k, in.get(k)));
    in.fields().forEachRemaining(e -> {
      if (!out.has(e.getKey())) {
        out.set(e.getKey(), e.getValue());
      }
    });
    return out;
  }

  private static String yaml(ObjectNode o) {
    try {
      return Mappers.yaml().writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
