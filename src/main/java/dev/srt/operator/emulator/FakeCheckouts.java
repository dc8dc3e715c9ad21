package dev.srt.operator.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The source trees the emulated {@code git} checks out, chosen by repository URL. They hold only
 * what the build stages read and edit: the manifests whose dependency lines the policy-catalog
 * linking rewrites, and the catalog's {@code worker-selection.yaml}.
 */
public final class FakeCheckouts {
  public static final String DYNAMO_VERSION = "1.2.0";
  public static final String CATALOG_ALIAS_LINE =
      "dynamo-worker-selection-policy-catalog = { path = \"../../router-plugins/catalog\", optional = true }";
  public static final String KV_ROUTER_GIT_LINE =
      "dynamo-kv-router = { git = \"https://github.com/ai-dynamo/dynamo.git\", branch = \"main\", features = [\"standalone-selection\"] }";
  /** {@code ishandhanani/router-sandbox: crates/sgl-router-cache-aware/worker-selection.yaml} @411b4648. */
  public static final String SGL_ROUTER_CACHE_AWARE_YAML = """
      worker_selection:
        aggregated: sgl-router-cache-aware
        prefill: sgl-router-cache-aware
        decode: sgl-router-cache-aware
        instances:
          - name: sgl-router-cache-aware
            type: sgl-router-cache-aware
      """;

  private FakeCheckouts() {}

  /** Writes the tree for {@code url} at {@code rev} into {@code dir}. */
  public static void materialize(String url, String rev, Path dir) throws IOException {
    Map<String, String> files = url.contains("ai-dynamo/dynamo") ? dynamo()
        : url.contains("sgl-project/sglang") ? sglang()
        : policyCatalog();
    for (Map.Entry<String, String> f : files.entrySet()) {
      Path p = dir.resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue().replace("@REV@", rev));
    }
  }

  private static Map<String, String> dynamo() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("pyproject.toml", """
        [project]
        name = "ai-dynamo"
        version = "%s"
        # emulated checkout of ai-dynamo/dynamo @REV@
        """.formatted(DYNAMO_VERSION));
    f.put("Cargo.toml", """
        [workspace]
        members = ["lib/kv-router", "lib/router-plugins/catalog", "lib/bindings/python"]
        """);
    f.put("lib/bindings/python/Cargo.toml", """
        [package]
        name = "dynamo-py3"
        version = "%s"
        edition = "2021"

        [lib]
        name = "_core"
        crate-type = ["cdylib"]

        [features]
        default = []
        custom-policy = ["dep:dynamo-worker-selection-policy-catalog"]

        [dependencies]
        dynamo-kv-router = { path = "../../kv-router" }
        %s
        """.formatted(DYNAMO_VERSION, CATALOG_ALIAS_LINE));
    f.put("lib/bindings/python/pyproject.toml", """
        [project]
        name = "ai-dynamo-runtime"
        version = "%s"
        """.formatted(DYNAMO_VERSION));
    f.put("lib/kv-router/Cargo.toml", """
        [package]
        name = "dynamo-kv-router"
        version = "%s"
        edition = "2021"

        [features]
        standalone-selection = []
        """.formatted(DYNAMO_VERSION));
    f.put("lib/router-plugins/catalog/Cargo.toml", """
        [package]
        name = "dynamo-worker-selection-policy-catalog"
        version = "%s"
        edition = "2021"

        [dependencies]
        dynamo-kv-router = { path = "../../kv-router", features = ["standalone-selection"] }
        """.formatted(DYNAMO_VERSION));
    f.put("lib/router-plugins/catalog/src/lib.rs", "// Intentionally empty: link a catalog with --features custom-policy.\n");
    return f;
  }

  private static Map<String, String> policyCatalog() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("Cargo.toml", """
        [workspace]
        members = ["crates/sgl-router-cache-aware", "crates/sglang-cache-aware"]
        """);
    f.put("README.md", "Emulated checkout of a worker-selection policy catalog @REV@.\n");
    f.putAll(catalogCrate("crates/sgl-router-cache-aware", "sgl-router-cache-aware-dynamo-policy", SGL_ROUTER_CACHE_AWARE_YAML));
    f.putAll(catalogCrate("crates/sglang-cache-aware", "sglang-cache-aware-dynamo-policy", """
        worker_selection:
          aggregated: sglang-cache-aware
          instances:
            - name: sglang-cache-aware
              type: sglang-cache-aware
              parameters: {cache_threshold: 0.3, balance_abs_threshold: 64, balance_rel_threshold: 1.5}
        """));
    return f;
  }

  private static Map<String, String> catalogCrate(String dir, String pkg, String yaml) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put(dir + "/Cargo.toml", """
        [package]
        name = "%s"
        version = "0.1.0"
        edition = "2021"

        [dependencies]
        %s
        anyhow = "1"
        """.formatted(pkg, KV_ROUTER_GIT_LINE));
    f.put(dir + "/worker-selection.yaml", yaml);
    f.put(dir + "/src/lib.rs", "// Emulated policy crate: the emulator implements its rule natively.\n");
    return f;
  }

  private static Map<String, String> sglang() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("python/pyproject.toml", """
        [project]
        name = "sglang"
        version = "0.5.18"
        """);
    f.put("python/sglang/__init__.py", "# emulated checkout of sgl-project/sglang @REV@\n");
    f.put("experimental/sgl-router/Cargo.toml", """
        [package]
        name = "sgl-router"
        version = "0.1.0"
        edition = "2021"
        """);
    return f;
  }
}
