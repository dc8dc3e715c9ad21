package dev.srt.operator.plan.frontends;

import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.PolicyCatalogSpec;
import dev.srt.operator.plan.ArmContext;
import dev.srt.operator.plan.BuildStage;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.api.Mode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Installing Dynamo for an arm: a released version, a given wheel, or a cached source build of a
 * pinned commit, optionally with an external worker-selection policy catalog linked in. The
 * linking contract (the five steps) lives here once, for both script kinds.
 *
 * <p>Every run installs into its own {@link #SITE_DIR}, which the Dynamo processes get on
 * PYTHONPATH: a run never changes the host's (or the container image's) Python, and two runs with
 * different builds of one commit (arms 2 and 3 of two comparisons) cannot replace each other's.
 */
public final class DynamoInstall {
  public static final String BUILD_STAGE = "dynamo-build";
  public static final String INSTALL_STAGE = "dynamo-install";
  public static final String DEFAULT_GIT = "https://github.com/ai-dynamo/dynamo";
  public static final String POLICY_CONFIG_NAME = "worker-selection.yaml";
  public static final String CATALOG_DEPENDENCY = "dynamo-worker-selection-policy-catalog";
  public static final String KV_ROUTER_DEPENDENCY = "dynamo-kv-router";
  public static final String DEFAULT_FEATURE = "custom-policy";
  /** What an install of Dynamo consists of: the Python package and its Rust runtime (the bindings). */
  public static final List<String> DISTRIBUTIONS = List.of("ai-dynamo", "ai-dynamo-runtime");
  /** The run's own Python package directory (pip --target). */
  public static final String SITE_DIR = "{{run_dir}}/python";
  /**
   * {@link #SITE_DIR} as the Dynamo processes' PYTHONPATH: relative, as they run in the run
   * directory (Python makes it absolute at start-up), so arms render identical worker commands.
   */
  public static final String PYTHONPATH = "python";
  /** The host's identity, known only when the script runs: {@code <machine>-<python cache tag>-<cpu flags digest>}. */
  public static final String HOST_TAG = "{{host_tag}}";

  private DynamoInstall() {}

  public static List<BuildStage> stages(ArmContext ctx) {
    DynamoSpec d = ctx.spec().dynamo;
    String py = ctx.python();
    if (!d.installOrDefault()) {
      return List.of();
    }
    if (d.version != null) {
      return List.of(new BuildStage(INSTALL_STAGE, null, List.of(List.of(py, "-m", "pip", "install", "--target", SITE_DIR,
          "--extra-index-url", "https://pypi.nvidia.com", DISTRIBUTIONS.get(1) + "==" + d.version, DISTRIBUTIONS.get(0) + "==" + d.version)), Map.of()));
    }
    if (d.wheel != null) {
      return List.of(new BuildStage(INSTALL_STAGE, null,
          List.of(List.of(py, "-m", "pip", "install", "--target", SITE_DIR, "--", d.wheel)), Map.of()));
    }
    String cache = cacheDir(ctx);
    PolicyCatalogSpec catalog = catalog(ctx);
    // A local catalog is keyed by its path; its content is checked when the build is reused.
    List<String> stamp = catalog != null && catalog.path != null ? List.of("srt_tree_digest", catalog.path) : null;
    return List.of(
        new BuildStage(BUILD_STAGE, cache, stamp, buildSteps(ctx, cache), Map.of("RUSTFLAGS", rustflags(ctx))),
        new BuildStage(INSTALL_STAGE, null, List.of(List.of("srt_pip_install_wheels", py, cache, SITE_DIR)), Map.of()));
  }

  private static List<List<String>> buildSteps(ArmContext ctx, String cache) {
    DynamoSpec d = ctx.spec().dynamo;
    PolicyCatalogSpec catalog = catalog(ctx);
    String build = cache + ".build";
    String dynamo = build + "/dynamo";
    String git = d.source != null && d.source.git != null ? d.source.git : DEFAULT_GIT;
    List<List<String>> steps = new ArrayList<>();
    steps.add(List.of("rm", "-rf", "--", build));
    steps.add(List.of("mkdir", "-p", "--", build));
    // The Python bindings are built with maturin, from the same interpreter that installs the wheel.
    steps.add(List.of(ctx.python(), "-m", "pip", "install", "--upgrade", "maturin"));
    steps.addAll(checkout(git, d.hash, dynamo));
    List<String> maturin = new ArrayList<>(List.of("srt_in_dir", dynamo + "/lib/bindings/python",
        ctx.python(), "-m", "maturin", "build", "--release"));
    if (catalog != null) {
      String repo = build + "/policy-catalog";
      String crate = catalog.crateSubdir == null ? repo : repo + "/" + catalog.crateSubdir;
      // 1. Materialize the catalog at an immutable rev.
      steps.addAll(catalog.git != null ? checkout(catalog.git, catalog.rev, repo) : List.of(List.of("srt_copy_tree", catalog.path, repo)));
      steps.add(List.of("srt_require_file", crate + "/Cargo.toml"));
      // 2. Repoint the crate's dynamo-kv-router at this checkout: otherwise cargo resolves a second
      // copy of that crate and the policy's types no longer unify with the bindings'.
      steps.add(List.of("srt_set_toml_dependency", crate + "/Cargo.toml", KV_ROUTER_DEPENDENCY,
          KV_ROUTER_DEPENDENCY + " = { path = \"" + dynamo + "/lib/kv-router\", features = [\"standalone-selection\"] }"));
      // 3. Replace Dynamo's catalog dependency alias with the crate.
      steps.add(List.of("srt_set_toml_dependency", dynamo + "/lib/bindings/python/Cargo.toml", CATALOG_DEPENDENCY,
          CATALOG_DEPENDENCY + " = { package = \"" + catalog.packageName + "\", path = \"" + crate + "\", optional = true }"));
      // 4. Build with the feature that links the catalog.
      maturin.add("--features");
      maturin.add(String.join(",", features(catalog)));
    }
    maturin.addAll(List.of("-o", cache));
    steps.add(maturin);
    steps.add(List.of(ctx.python(), "-m", "pip", "wheel", "--no-deps", "-w", cache, "--", dynamo));
    if (catalog != null) {
      // 5. Publish the catalog's YAML next to the wheel; the frontend gets it as --router-policy-config.
      String crate = build + "/policy-catalog" + (catalog.crateSubdir == null ? "" : "/" + catalog.crateSubdir);
      steps.add(List.of("cp", "--", crate + "/" + configName(catalog), cache + "/" + POLICY_CONFIG_NAME));
    }
    steps.add(List.of("rm", "-rf", "--", build));
    return steps;
  }

  /**
   * srt-slurm's flags for the bindings: code for this CPU (direct hosts key the cache by its
   * flags; a Slurm partition's nodes share one platform) and tokio's unstable metrics, which
   * Dynamo's runtime reads. After the cluster's own RUSTFLAGS (spec.env), as srt-slurm appends
   * to the environment's.
   */
  static String rustflags(ArmContext ctx) {
    String cluster = ctx.cluster().env == null ? null : ctx.cluster().env.get("RUSTFLAGS");
    return (cluster == null || cluster.isBlank() ? "" : cluster + " ") + RUSTFLAGS;
  }

  public static final String RUSTFLAGS = "-C target-cpu=native --cfg tokio_unstable";

  /** {@code --} before the URL and the rev: neither can be read as an option (git URLs are validated too). */
  private static List<List<String>> checkout(String git, String rev, String dir) {
    return List.of(
        List.of("git", "clone", "--no-checkout", "--", git, dir),
        List.of("git", "-C", dir, "fetch", "--depth", "1", "--", "origin", rev),
        List.of("git", "-C", dir, "checkout", "--detach", "FETCH_HEAD"));
  }

  /** The arm's policy catalog, or null. */
  public static PolicyCatalogSpec catalog(ArmContext ctx) {
    return ctx.arm().dynamo == null ? null : ctx.arm().dynamo.policyCatalog;
  }

  /**
   * The build's cache key: the commit, plus a digest of every catalog field when a catalog is
   * linked, so patched and unpatched builds of one commit never share a wheel.
   */
  public static String cacheKey(ArmContext ctx) {
    DynamoSpec d = ctx.spec().dynamo;
    if (d.hash == null) {
      return null;
    }
    PolicyCatalogSpec c = catalog(ctx);
    String plainKey = d.hash;
    if (c == null) {
      return plainKey;
    }
    String identity = String.join("\n", "catalog-v1", String.valueOf(c.git), String.valueOf(c.path), String.valueOf(c.rev),
        String.valueOf(c.crateSubdir), c.packageName, configName(c), String.join(",", features(c)));
    return plainKey + "-policy-" + Hashes.sha256(identity).substring(0, 12);
  }

  /**
   * Where the build is cached. On a direct host the directory also names the machine, the Python
   * (the image, with a container) and the CPU ({@code {{host_tag}}}, resolved by the script), as
   * one work directory may be shared by hosts whose wheels do not run on each other. In a Slurm
   * job it is the key alone, as in the contract (nodes of one partition share the platform).
   */
  public static String cacheDir(ArmContext ctx) {
    String key = cacheKey(ctx);
    return ctx.cacheDir("dynamo", ctx.mode() == Mode.DIRECT ? key + "-" + HOST_TAG : key);
  }

  /** Where the published worker-selection YAML of the arm's catalog is, or null. */
  public static String policyConfigPath(ArmContext ctx) {
    return catalog(ctx) == null || ctx.spec().dynamo.hash == null ? null : cacheDir(ctx) + "/" + POLICY_CONFIG_NAME;
  }

  static String configName(PolicyCatalogSpec c) {
    return c.config == null ? POLICY_CONFIG_NAME : c.config;
  }

  static List<String> features(PolicyCatalogSpec c) {
    return c.features == null || c.features.isEmpty() ? List.of(DEFAULT_FEATURE) : c.features;
  }
}
