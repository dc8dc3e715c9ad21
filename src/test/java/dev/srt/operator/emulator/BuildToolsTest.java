package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build stand-ins in-process: the policy-catalog linking steps of arms-contract section 7.2. */
class BuildToolsTest {
  private static final String DYNAMO = "https://github.com/ai-dynamo/dynamo.git";
  private static final String CATALOG = "https://github.com/ishandhanani/router-sandbox";
  private static final String REV = "411b4648e7fd50c776f0c787f1abb2592eeef41b";

  @TempDir Path tmp;
  private Path stateDir;
  private Map<String, String> env;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void setUp() {
    stateDir = tmp.resolve("state");
    env = Map.of(EmulatorState.ENV, stateDir.toString(), "CARGO_TARGET_DIR", tmp.resolve("target").toString());
  }

  private int tool(Path cwd, String tool, String... args) {
    BuildTools.Context ctx = new BuildTools.Context(cwd, env, new EmulatorState(stateDir),
        () -> new JavaLauncher(Path.of("/usr/bin/java"), tmp.resolve("srt-operator.jar")),
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    return BuildTools.run(tool, List.of(args), ctx);
  }

  private void checkout(String url, String dir) {
    assertThat(tool(tmp, "git", "clone", "--no-checkout", url, dir)).isZero();
    assertThat(tool(tmp, "git", "-C", dir, "fetch", "--depth", "1", "origin", REV)).isZero();
    assertThat(tool(tmp, "git", "-C", dir, "checkout", "--detach", "FETCH_HEAD")).isZero();
  }

  /** Step 3 of the contract: point Dynamo's catalog alias at the crate. */
  private Path linkCatalog() throws Exception {
    checkout(DYNAMO, "dynamo");
    checkout(CATALOG, "policy-catalog");
    Path crate = tmp.resolve("policy-catalog/crates/sgl-router-cache-aware");
    Path bindings = tmp.resolve("dynamo/lib/bindings/python/Cargo.toml");
    Files.writeString(bindings, Files.readString(bindings).replace(FakeCheckouts.CATALOG_ALIAS_LINE,
        "dynamo-worker-selection-policy-catalog = { package = \"sgl-router-cache-aware-dynamo-policy\", path = \"" + crate + "\", optional = true }"));
    assertThat(tool(tmp, "pip", "install", "-U", "maturin")).isZero();
    return crate;
  }

  private int maturinBuild() {
    return tool(tmp.resolve("dynamo/lib/bindings/python"), "maturin", "build", "--release", "--features", "custom-policy",
        "-o", tmp.resolve("wheels").toString());
  }

  @Test
  void gitMaterializesTheTreeChosenByUrlAtTheFetchedRevision() throws Exception {
    checkout(DYNAMO, "dynamo");
    checkout(CATALOG, "policy-catalog");
    assertThat(Files.readString(tmp.resolve("dynamo/lib/bindings/python/Cargo.toml")))
        .contains(FakeCheckouts.CATALOG_ALIAS_LINE).contains("custom-policy");
    assertThat(tmp.resolve("dynamo/lib/kv-router/Cargo.toml")).content().contains("name = \"dynamo-kv-router\"");
    Path crate = tmp.resolve("policy-catalog/crates/sgl-router-cache-aware");
    assertThat(crate.resolve("Cargo.toml")).content()
        .contains("name = \"sgl-router-cache-aware-dynamo-policy\"").contains(FakeCheckouts.KV_ROUTER_GIT_LINE);
    assertThat(crate.resolve("worker-selection.yaml")).content().isEqualTo(FakeCheckouts.SGL_ROUTER_CACHE_AWARE_YAML);
    assertThat(tmp.resolve("policy-catalog/crates/sglang-cache-aware/Cargo.toml")).content().contains("sglang-cache-aware-dynamo-policy");
    assertThat(Files.readString(tmp.resolve("policy-catalog/" + GitTool.MARKER))).contains(REV);
  }

  @Test
  void cloningOverANonEmptyDirectoryFailsLikeGit() throws Exception {
    Files.createDirectories(tmp.resolve("taken"));
    Files.writeString(tmp.resolve("taken/file"), "x");
    assertThat(tool(tmp, "git", "clone", "--no-checkout", CATALOG, "taken")).isEqualTo(128);
    assertThat(err.toString()).contains("already exists and is not an empty directory");
  }

  @Test
  void maturinFailsWhenTheCatalogCrateStillUsesDynamoFromGit() throws Exception {
    linkCatalog();
    assertThat(maturinBuild()).isEqualTo(1);
    assertThat(err.toString()).contains("multiple different versions of crate `dynamo_kv_router`")
        .contains("git+https://github.com/ai-dynamo/dynamo.git?branch=main").contains("💥 maturin failed");
    assertThat(tmp.resolve("wheels")).doesNotExist();
  }

  @Test
  void maturinLinksTheCatalogOnceItsKvRouterPointsAtTheCheckout() throws Exception {
    Path crate = linkCatalog();
    Path manifest = crate.resolve("Cargo.toml");
    Files.writeString(manifest, Files.readString(manifest).replace(FakeCheckouts.KV_ROUTER_GIT_LINE,
        "dynamo-kv-router = { path = \"" + tmp.resolve("dynamo/lib/kv-router") + "\", features = [\"standalone-selection\"] }"));
    assertThat(maturinBuild()).isZero();
    Path wheel = tmp.resolve("wheels/ai_dynamo_runtime-" + FakeCheckouts.DYNAMO_VERSION + "-cp310-abi3-linux_x86_64.whl");
    JsonNode info = Wheels.emulatorInfo(wheel).orElseThrow();
    assertThat(info.path("linked_catalog").path("package").asText()).isEqualTo("sgl-router-cache-aware-dynamo-policy");
    assertThat(info.path("policy_types").toString()).contains("sgl-router-cache-aware");

    assertThat(tool(tmp, "pip", "wheel", "--no-deps", "dynamo", "-w", "wheels")).isZero();
    assertThat(tool(tmp, "pip", "install", "--force-reinstall", "--no-deps", wheel.toString(),
        "wheels/ai_dynamo-" + FakeCheckouts.DYNAMO_VERSION + "-py3-none-any.whl")).isZero();
    DynamoInstall installed = DynamoInstall.find(env, "dynamo.frontend");
    assertThat(installed.policyTypes()).contains("sgl-router-cache-aware").containsAll(DynamoInstall.BUILTIN_POLICY_TYPES);
    assertThat(stateDir.resolve("site/dynamo/__init__.py")).exists();

    List<String> calls = Files.readAllLines(stateDir.resolve(EmulatorState.TOOL_CALLS));
    JsonNode build = calls.stream().map(Json::parse).filter(c -> c.path("tool").asText().equals("maturin")).reduce((a, b) -> b).orElseThrow();
    assertThat(build.path("argv").toString()).contains("custom-policy");
    assertThat(build.path("cwd").asText()).endsWith("dynamo/lib/bindings/python");
    assertThat(build.path("env").path("CARGO_TARGET_DIR").asText()).isEqualTo(tmp.resolve("target").toString());
    assertThat(build.path("exit").asInt()).isZero();
  }

  @Test
  void withoutTheFeatureNothingIsLinkedAndTheCatalogTypeStaysUnknown() throws Exception {
    linkCatalog();
    assertThat(tool(tmp.resolve("dynamo/lib/bindings/python"), "maturin", "build", "--release", "-o", "../../../../wheels")).isZero();
    JsonNode info = Wheels.emulatorInfo(tmp.resolve("wheels/ai_dynamo_runtime-" + FakeCheckouts.DYNAMO_VERSION
        + "-cp310-abi3-linux_x86_64.whl")).orElseThrow();
    assertThat(info.path("linked_catalog").isNull()).isTrue();
    assertThat(info.path("policy_types").toString()).doesNotContain("sgl-router-cache-aware");
  }

  @Test
  void maturinNeedsToBeInstalledFirst() throws Exception {
    checkout(DYNAMO, "dynamo");
    assertThat(maturinBuild()).isEqualTo(1);
    assertThat(err.toString()).contains("No module named maturin");
  }

  @Test
  void dynamoIsMissingUntilBothDistributionsAreInstalled() throws Exception {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> DynamoInstall.find(env, "dynamo.frontend"))
        .hasMessageContaining("ModuleNotFoundError: No module named 'dynamo'");
    assertThat(tool(tmp, "pip", "install", "ai-dynamo==0.8.0")).isZero();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> DynamoInstall.find(env, "dynamo.frontend"))
        .hasMessageContaining("No module named 'dynamo._core'");
    assertThat(tool(tmp, "pip", "install", "ai-dynamo-runtime==0.8.0")).isZero();
    assertThat(DynamoInstall.find(env, "dynamo.frontend").policyTypes()).isEqualTo(DynamoInstall.BUILTIN_POLICY_TYPES);
  }

  @Test
  void cargoWritesTheRouterWhereCargoWouldEvenWithoutTheManifest() throws Exception {
    assertThat(tool(tmp, "cargo", "build", "--release", "--manifest-path", "/src/sglang/experimental/sgl-router/Cargo.toml",
        "--bin", "sgl-router")).isZero();
    Path bin = tmp.resolve("target/release/sgl-router");
    assertThat(Files.isExecutable(bin)).isTrue();
    assertThat(bin).content().contains("emulate router sgl-router \"$@\"").contains(tmp.resolve("srt-operator.jar").toString());
    assertThat(tool(tmp, "cargo", "build", "--release", "--manifest-path", "/x/other/Cargo.toml")).isEqualTo(101);
  }
}
