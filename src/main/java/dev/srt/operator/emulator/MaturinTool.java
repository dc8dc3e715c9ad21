package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.base.Mappers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code maturin build} of Dynamo's Python bindings ({@code lib/bindings/python}), with the checks
 * cargo would make when {@code --features custom-policy} links a worker-selection policy catalog:
 * the catalog alias must point at a crate of the declared package, and that crate's
 * {@code dynamo-kv-router} must be this checkout's {@code lib/kv-router}, or the policy types do
 * not unify with the bindings' and the build fails. The wheel records what was linked.
 */
final class MaturinTool {
  static final String CATALOG_DEPENDENCY = "dynamo-worker-selection-policy-catalog";
  static final String KV_ROUTER_DEPENDENCY = "dynamo-kv-router";
  static final String CUSTOM_POLICY = "custom-policy";

  private final BuildTools.Context ctx;

  MaturinTool(BuildTools.Context ctx) {
    this.ctx = ctx;
  }

  int run(List<String> argv) throws BuildTools.ToolFailure, IOException {
    if (!argv.isEmpty() && (argv.get(0).equals("--version") || argv.get(0).equals("-V"))) {
      ctx.out().println("maturin 1.9.4 (emulated by srt-operator)");
      return 0;
    }
    requireInstalled();
    String command = argv.isEmpty() ? "" : argv.get(0);
    if (!command.equals("build") && !command.equals("develop")) {
      throw new BuildTools.ToolFailure(2, "maturin (emulated): supports `build` and `develop`, not `" + command + "`");
    }
    ArgParser.Parsed a = new ArgParser("maturin " + command).withPositionals()
        .flag("--release").list("--features", "-F").value("--out", "-o").value("--manifest-path", "-m")
        .value("--interpreter", "-i").value("--target").value("--compatibility").value("--profile").value("--jobs", "-j")
        .parse(argv.subList(1, argv.size()));
    Path manifest = ctx.resolve(a.get("--manifest-path", "Cargo.toml"));
    Set<String> features = new LinkedHashSet<>();
    for (String f : a.list("--features")) {
      for (String part : f.split("[ ,]+")) {
        if (!part.isBlank()) {
          features.add(part);
        }
      }
    }
    Path wheel = build(manifest, features, outDir(a, manifest));
    ctx.err().println("📦 Built wheel for abi3 Python ≥ 3.10 to " + wheel);
    if (command.equals("develop")) {
      return new PipTool(ctx).run(List.of("install", "--force-reinstall", wheel.toString()));
    }
    return 0;
  }

  /** {@code python3 -m maturin} needs maturin installed, which the build stages do with pip. */
  private void requireInstalled() throws BuildTools.ToolFailure {
    if (EmulatorState.fromEnv(ctx.env()).isPresent() && !ctx.state().packages().has("maturin")) {
      throw new BuildTools.ToolFailure(1, "python3: No module named maturin (emulated: run `pip install maturin` first)");
    }
  }

  private Path outDir(ArgParser.Parsed a, Path manifest) {
    if (a.has("--out")) {
      return ctx.resolve(a.get("--out"));
    }
    String target = ctx.env().get("CARGO_TARGET_DIR");
    return (target != null ? ctx.resolve(target) : manifest.getParent().resolve("target")).resolve("wheels");
  }

  Path build(Path manifest, Set<String> features, Path outDir) throws BuildTools.ToolFailure, IOException {
    if (!Files.isRegularFile(manifest)) {
      throw failed("Can't find " + manifest + " (run in lib/bindings/python or pass --manifest-path)");
    }
    TomlLines bindings = TomlLines.read(manifest);
    Path bindingsDir = manifest.getParent();
    String version = bindings.get("package", "version").map(TomlLines.Entry::text).orElse("0.0.0");
    Path kvRouter = bindingsDir.resolve("../../kv-router").normalize();
    if (!Files.isRegularFile(kvRouter.resolve("Cargo.toml"))) {
      throw failed("failed to load manifest for dependency `" + KV_ROUTER_DEPENDENCY + "`: " + kvRouter.resolve("Cargo.toml")
          + " not found (is " + bindingsDir + " inside a Dynamo checkout?)");
    }
    Optional<Catalog> catalog = Optional.empty();
    if (features.contains(CUSTOM_POLICY)) {
      if (bindings.get("features", CUSTOM_POLICY).isEmpty()) {
        throw failed("error: none of the selected packages contains this feature: " + CUSTOM_POLICY);
      }
      catalog = Optional.of(linkCatalog(bindings, kvRouter));
    }
    ObjectNode info = Json.object().put("distribution", DynamoInstall.RUNTIME).put("version", version)
        .put("source", bindingsDir.resolve("../../..").normalize().toString());
    ArrayNode feats = info.putArray("features");
    features.forEach(feats::add);
    List<String> types = new ArrayList<>(DynamoInstall.BUILTIN_POLICY_TYPES);
    if (catalog.isPresent()) {
      info.putObject("linked_catalog").put("package", catalog.get().pkg()).put("path", catalog.get().dir().toString());
      catalog.get().types().stream().filter(t -> !types.contains(t)).forEach(types::add);
    } else {
      info.putNull("linked_catalog");
    }
    ArrayNode t = info.putArray("policy_types");
    types.forEach(t::add);
    return Wheels.write(outDir, DynamoInstall.RUNTIME, version, "cp310-abi3-linux_x86_64", info);
  }

  record Catalog(String pkg, Path dir, List<String> types) {}

  private Catalog linkCatalog(TomlLines bindings, Path kvRouter) throws BuildTools.ToolFailure, IOException {
    TomlLines.Entry alias = bindings.dependency(CATALOG_DEPENDENCY).orElseThrow(() -> failed(
        "error: feature `" + CUSTOM_POLICY + "` includes `dep:" + CATALOG_DEPENDENCY + "`, but `" + CATALOG_DEPENDENCY
            + "` is not a dependency of " + bindings.file()));
    Map<String, String> spec = alias.table();
    if (!spec.containsKey("path")) {
      throw failed("error: " + CATALOG_DEPENDENCY + " in " + bindings.file() + " must be a path dependency (got " + alias.value() + ")");
    }
    String pkg = spec.getOrDefault("package", CATALOG_DEPENDENCY);
    Path dir = bindings.file().getParent().resolve(spec.get("path")).normalize();
    Path crateManifest = dir.resolve("Cargo.toml");
    if (!Files.isRegularFile(crateManifest)) {
      throw failed("error: failed to read `" + crateManifest + "`\n\nCaused by:\n  No such file or directory (os error 2)");
    }
    TomlLines crate = TomlLines.read(crateManifest);
    String actual = crate.get("package", "name").map(TomlLines.Entry::text).orElse("");
    if (!actual.equals(pkg)) {
      throw failed("error: no matching package named `" + pkg + "` found\nlocation searched: " + dir
          + "\nrequired by package `dynamo-py3` (found `" + actual + "` there)");
    }
    Optional<TomlLines.Entry> kv = crate.dependency(KV_ROUTER_DEPENDENCY);
    if (kv.isPresent()) {
      checkSameKvRouter(pkg, dir, kv.get(), kvRouter);
    }
    return new Catalog(pkg, dir, policyTypes(dir.resolve("worker-selection.yaml")));
  }

  /** The crate's {@code dynamo-kv-router} must be the very crate the bindings compile against. */
  private void checkSameKvRouter(String pkg, Path crateDir, TomlLines.Entry dep, Path kvRouter) throws BuildTools.ToolFailure, IOException {
    Map<String, String> spec = dep.table();
    String theirs = spec.containsKey("path")
        ? "path+file://" + crateDir.resolve(spec.get("path")).normalize()
        : spec.containsKey("git") ? "git+" + spec.get("git") + (spec.containsKey("branch") ? "?branch=" + spec.get("branch") : "")
        : "registry+https://github.com/rust-lang/crates.io-index (" + dep.value() + ")";
    boolean same = spec.containsKey("path") && sameFile(crateDir.resolve(spec.get("path")), kvRouter);
    if (!same) {
      throw failed("""
          error[E0277]: the trait bound `%s::Policy: dynamo_kv_router::WorkerSelectionPolicy` is not satisfied
            --> %s/src/lib.rs
             |
             = note: there are multiple different versions of crate `dynamo_kv_router` in the dependency graph
             = note: `dynamo-kv-router` from %s (used by `%s`)
             = note: `dynamo-kv-router` from path+file://%s (used by `dynamo-py3`)
             = help: perhaps two different versions of crate `dynamo_kv_router` are being used? Point the catalog's
                     dynamo-kv-router at the checkout being built
          error: could not compile `%s` (lib) due to 1 previous error""".formatted(
          pkg.replace('-', '_'), crateDir, theirs, pkg, kvRouter, pkg));
    }
    if (!spec.getOrDefault("features", "").contains("standalone-selection")) {
      throw failed("error[E0432]: unresolved import `dynamo_kv_router::selection`\n  --> " + crateDir
          + "/src/lib.rs\n   = note: the item is gated behind the `standalone-selection` feature of dynamo-kv-router\n"
          + "error: could not compile `" + pkg + "` (lib) due to 1 previous error");
    }
  }

  private static boolean sameFile(Path a, Path b) throws IOException {
    return Files.exists(a) && Files.exists(b) ? Files.isSameFile(a, b) : a.normalize().equals(b.normalize());
  }

  /** The policy types the catalog registers, as its worker-selection.yaml names them. */
  static List<String> policyTypes(Path yaml) throws IOException {
    List<String> types = new ArrayList<>();
    if (Files.isRegularFile(yaml)) {
      JsonNode root = Mappers.yaml().readTree(yaml.toFile());
      if (root != null) {
        root.path("worker_selection").path("instances").forEach(i -> types.add(i.path("type").asText()));
      }
    }
    return types;
  }

  private static BuildTools.ToolFailure failed(String cargoOutput) {
    return new BuildTools.ToolFailure(1, cargoOutput + "\n💥 maturin failed\n  Caused by: Failed to build a native library through cargo");
  }
}
