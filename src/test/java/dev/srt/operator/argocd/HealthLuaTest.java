package dev.srt.operator.argocd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.jse.JseBaseLib;

/**
 * Runs every case of every {@code manifests/argocd/health/<group>_<Kind>/health_test.yaml} (Argo
 * CD's own test format) through its {@code health.lua}, the way Argo CD does: the fixture becomes
 * the global {@code obj}, the script's returned table must hold the expected {@code status} and
 * {@code message}. A new entry in a health_test.yaml is a new test; a fixture no entry uses fails.
 *
 * <p>Argo CD runs health checks from argocd-cm in gopher-lua (Lua 5.1) with only the base, table
 * and package libraries unless {@code useOpenLibs} is set; LuaJ (Lua 5.2) is set up the same way
 * here, so a script that calls {@code string.*} or {@code math.*} fails in this test as it would
 * in Argo CD.
 */
class HealthLuaTest {
  static final Path HEALTH_DIR = Path.of("manifests", "argocd", "health");
  static final Path CM_PATCH = Path.of("manifests", "argocd", "argocd-cm-patch.yaml");
  static final Path CRDS_DIR = Path.of("crds");
  static final String CM_KEY_PREFIX = "resource.customizations.health.";
  static final Set<String> HEALTH_STATUSES =
      Set.of("Healthy", "Progressing", "Degraded", "Suspended", "Missing", "Unknown");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  // ---------------------------------------------------------------------------------------------
  // health_test.yaml cases

  @TestFactory
  Stream<DynamicNode> healthTestCases() {
    return healthDirs().stream().map(dir -> {
      String script = read(dir.resolve("health.lua"));
      List<DynamicNode> cases = new ArrayList<>();
      for (JsonNode test : readYaml(dir.resolve("health_test.yaml")).path("tests")) {
        String inputPath = test.path("inputPath").asText();
        String status = test.path("healthStatus").path("status").asText();
        String message = test.path("healthStatus").path("message").asText();
        Path fixture = dir.resolve(inputPath);
        cases.add(dynamicTest(inputPath + " -> " + status, fixture.toUri(), () -> {
          HealthStatus actual = evaluate(script, readYaml(fixture));
          assertEquals(new HealthStatus(status, message), actual, "health of " + fixture);
        }));
      }
      return dynamicContainer(dir.getFileName().toString(), dir.toUri(), cases.stream());
    });
  }

  /**
   * Nil-safety: every fixture, with each of its fields removed in turn or replaced by a value of
   * another type, still yields a valid health status and a message instead of a Lua error.
   */
  @TestFactory
  Stream<DynamicNode> scriptsTolerateAbsentAndMistypedFields() {
    return healthDirs().stream().map(dir -> {
      String script = read(dir.resolve("health.lua"));
      return dynamicContainer(dir.getFileName().toString(), fixtures(dir).stream().map(fixture ->
          dynamicTest(dir.relativize(fixture).toString(), fixture.toUri(), () -> {
            List<String> failures = new ArrayList<>();
            int[] variants = {0};
            mutations(readYaml(fixture), (change, variant) -> {
              variants[0]++;
              try {
                HealthStatus h = evaluate(script, variant);
                if (!HEALTH_STATUSES.contains(h.status()) || h.message() == null || h.message().isEmpty()) {
                  failures.add(change + " -> " + h);
                }
              } catch (LuaError e) {
                failures.add(change + " -> " + e.getMessage());
              }
            });
            assertThat(variants[0]).as("variants of %s", fixture).isGreaterThan(10);
            assertThat(failures).as("variants of %s that broke the script", fixture).isEmpty();
          })));
    });
  }

  @Test
  void everyCrdHasAHealthCheckWithTestsAndEveryFixtureIsUsed() throws IOException {
    Set<String> expectedDirs = new TreeSet<>();
    try (Stream<Path> files = Files.list(CRDS_DIR)) {
      for (Path crd : files.filter(p -> p.toString().endsWith(".yml")).toList()) {
        JsonNode spec = readYaml(crd).path("spec");
        expectedDirs.add(spec.path("group").asText() + "_" + spec.path("names").path("kind").asText());
      }
    }
    assertThat(expectedDirs).containsExactlyInAnyOrder("srt.dev_RouterComparison", "srt.dev_GpuCluster");
    assertThat(healthDirs().stream().map(d -> d.getFileName().toString()).toList())
        .containsExactlyInAnyOrderElementsOf(expectedDirs);

    for (Path dir : healthDirs()) {
      JsonNode tests = readYaml(dir.resolve("health_test.yaml")).path("tests");
      assertThat(tests.size()).as("cases in %s", dir).isGreaterThanOrEqualTo(5);
      Set<Path> used = new TreeSet<>();
      Set<String> statuses = new TreeSet<>();
      for (JsonNode test : tests) {
        assertThat(test.path("inputPath").asText()).as("inputPath in %s", dir).startsWith("testdata/");
        Path fixture = dir.resolve(test.path("inputPath").asText()).normalize();
        assertThat(fixture).as("fixture of %s", dir).isRegularFile();
        used.add(fixture);
        String status = test.path("healthStatus").path("status").asText();
        assertThat(HEALTH_STATUSES).as("status in %s", dir).contains(status);
        assertThat(test.path("healthStatus").path("message").isTextual()).as("message of %s", fixture).isTrue();
        statuses.add(status);
      }
      assertThat(new TreeSet<>(fixtures(dir).stream().map(Path::normalize).toList()))
          .as("every testdata/*.yaml of %s is used by a case of its health_test.yaml", dir)
          .isEqualTo(used);
      assertThat(statuses).as("statuses covered in %s", dir).contains("Healthy", "Progressing", "Degraded");
    }
  }

  /** Fixtures look like `kubectl get -o yaml`: the right kind, a generation, string statuses. */
  @Test
  void fixturesLookLikeKubectlOutput() {
    for (Path dir : healthDirs()) {
      String kind = dir.getFileName().toString().substring("srt.dev_".length());
      for (Path fixture : fixtures(dir)) {
        JsonNode o = readYaml(fixture);
        assertThat(o.path("apiVersion").asText()).as("apiVersion of %s", fixture).isEqualTo("srt.dev/v1alpha1");
        assertThat(o.path("kind").asText()).as("kind of %s", fixture).isEqualTo(kind);
        JsonNode metadata = o.path("metadata");
        assertThat(metadata.path("name").isTextual()).as("metadata.name of %s", fixture).isTrue();
        assertThat(metadata.path("namespace").isTextual()).as("metadata.namespace of %s", fixture).isTrue();
        assertThat(metadata.path("generation").isIntegralNumber()).as("metadata.generation of %s", fixture).isTrue();
        assertThat(metadata.path("resourceVersion").isTextual()).as("resourceVersion of %s", fixture).isTrue();
        assertThat(o.path("spec").isObject()).as("spec of %s", fixture).isTrue();
        for (JsonNode c : o.path("status").path("conditions")) {
          // kubectl quotes "True"/"False"; an unquoted True would be a YAML boolean.
          assertThat(c.path("status").isTextual()).as("condition status in %s is a string", fixture).isTrue();
          assertThat(c.path("type").isTextual()).as("condition type in %s", fixture).isTrue();
          assertThat(c.path("reason").asText()).as("condition reason in %s", fixture).matches("[A-Z][A-Za-z]*");
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // argocd-cm patch

  @Test
  void everyHealthScriptIsEmbeddedVerbatimInTheArgocdCmPatch() {
    JsonNode cm = readYaml(CM_PATCH);
    assertThat(cm.path("kind").asText()).isEqualTo("ConfigMap");
    assertThat(cm.path("metadata").path("name").asText()).isEqualTo("argocd-cm");

    Map<String, String> expected = new TreeMap<>();
    for (Path dir : healthDirs()) {
      expected.put(CM_KEY_PREFIX + dir.getFileName(), read(dir.resolve("health.lua")));
    }
    Map<String, String> actual = new TreeMap<>();
    cm.path("data").properties().forEach(e -> {
      if (e.getKey().startsWith(CM_KEY_PREFIX)) {
        actual.put(e.getKey(), e.getValue().asText());
      }
    });
    assertThat(actual)
        .as("%s must embed every health.lua verbatim: run manifests/argocd/update-argocd-cm-patch.sh", CM_PATCH)
        .isEqualTo(expected);
  }

  /** Argo CD's VM has no string/math/io/os/debug library: the scripts must not reach for them. */
  @Test
  void scriptsUseOnlyWhatArgoCdProvides() {
    Pattern forbidden = Pattern.compile("\\b(string|math|io|os|debug|coroutine|utf8|bit32)\\s*\\.|\\b(goto|setfenv|getfenv|loadstring|unpack|require)\\b");
    Pattern methodCall = Pattern.compile("[\\w\\)\\]\"']\\s*:\\s*\\w+\\s*\\(");
    for (Path dir : healthDirs()) {
      Path file = dir.resolve("health.lua");
      int n = 0;
      for (String line : read(file).split("\n", -1)) {
        n++;
        String code = line.replaceAll("--.*$", "").replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
        Matcher m = forbidden.matcher(code);
        assertThat(m.find()).as("%s:%d uses %s", file, n, line.trim()).isFalse();
        assertThat(methodCall.matcher(code).find()).as("%s:%d uses a method call (string methods need the string library): %s", file, n, line.trim()).isFalse();
        assertThat(line).as("%s:%d has a tab or trailing blank", file, n).doesNotContain("\t").doesNotMatch(".*\\s$");
      }
      assertThat(read(file)).as("%s ends with one newline", file).endsWith("\n").doesNotEndWith("\n\n");
    }
  }

  @Test
  void theHarnessBehavesLikeArgoCdWithoutOpenLibs() {
    // The same restriction Argo CD applies: string and math are absent.
    HealthStatus h = evaluate("""
        local hs = {}
        hs.status = "Healthy"
        hs.message = tostring(string == nil) .. " " .. tostring(math == nil) .. " " .. tostring(obj.metadata.generation)
          .. " " .. tostring(#obj.list) .. " " .. tostring(obj.list[1]) .. " " .. tostring(obj.missing)
        return hs
        """, readYamlString("{metadata: {generation: 3}, list: [a, b], nothing: null}"));
    assertEquals(new HealthStatus("Healthy", "true true 3 2 a nil"), h);
    try {
      evaluate("local s = \"x\"; return {status = s:upper(), message = \"\"}", readYamlString("{}"));
      fail("string methods must not be available");
    } catch (LuaError expected) {
      // as in Argo CD without useOpenLibs
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Lua harness

  record HealthStatus(String status, String message) {}

  private static final Map<String, Prototype> COMPILED = new ConcurrentHashMap<>();

  /** Runs a health script with {@code obj} bound to the given object, as Argo CD does. */
  static HealthStatus evaluate(String script, JsonNode obj) {
    Globals globals = new Globals();
    globals.load(new JseBaseLib());
    globals.load(new PackageLib());
    globals.load(new TableLib());
    LoadState.install(globals);
    LuaC.install(globals);
    globals.set("obj", toLua(obj));
    LuaValue savedStringMetatable = LuaString.s_metatable;
    LuaString.s_metatable = null; // no string library: "x":upper() fails, as in Argo CD
    LuaValue result;
    try {
      Prototype compiled = COMPILED.computeIfAbsent(script, s -> {
        try {
          return globals.compilePrototype(new StringReader(s), "health.lua");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      result = new LuaClosure(compiled, globals).call();
    } finally {
      LuaString.s_metatable = savedStringMetatable;
    }
    if (!result.istable()) {
      throw new LuaError("health.lua returned " + result.typename() + ", not a table");
    }
    LuaValue status = result.get("status");
    LuaValue message = result.get("message");
    return new HealthStatus(status.isnil() ? null : status.tojstring(), message.isnil() ? null : message.tojstring());
  }

  /**
   * JSON-like tree to Lua values the way Argo CD's decodeValue does: objects and arrays become
   * tables (arrays 1-based), numbers numbers, null nil.
   */
  static LuaValue toLua(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return LuaValue.NIL;
    }
    if (node.isObject()) {
      LuaTable t = new LuaTable();
      node.properties().forEach(e -> {
        LuaValue v = toLua(e.getValue());
        if (!v.isnil()) {
          t.set(e.getKey(), v);
        }
      });
      return t;
    }
    if (node.isArray()) {
      LuaTable t = new LuaTable();
      int i = 1;
      for (JsonNode item : node) {
        LuaValue v = toLua(item);
        if (!v.isnil()) {
          t.set(i++, v);
        }
      }
      return t;
    }
    if (node.isBoolean()) {
      return LuaValue.valueOf(node.booleanValue());
    }
    if (node.isIntegralNumber() && node.canConvertToInt()) {
      return LuaValue.valueOf(node.intValue());
    }
    if (node.isNumber()) {
      return LuaValue.valueOf(node.doubleValue());
    }
    return LuaValue.valueOf(node.asText());
  }

  /** Every variant of the tree with one node removed or replaced by a value of another type. */
  static void mutations(JsonNode root, BiConsumer<String, JsonNode> sink) {
    Map<String, JsonNode> replacements = Map.of(
        "\"x\"", JsonNodeFactory.instance.textNode("x"),
        "7", JsonNodeFactory.instance.numberNode(7),
        "true", JsonNodeFactory.instance.booleanNode(true),
        "{}", JsonNodeFactory.instance.objectNode(),
        "[]", JsonNodeFactory.instance.arrayNode(),
        "null", JsonNodeFactory.instance.nullNode());
    List<List<Object>> paths = new ArrayList<>();
    collectPaths(root, new ArrayList<>(), paths);
    for (List<Object> path : paths) {
      String name = describe(path);
      Object last = path.get(path.size() - 1);
      JsonNode removed = root.deepCopy();
      JsonNode parent = at(removed, path.subList(0, path.size() - 1));
      if (parent instanceof ObjectNode o) {
        o.remove((String) last);
      } else if (parent instanceof ArrayNode a) {
        a.remove((Integer) last);
      }
      sink.accept("without " + name, removed);
      replacements.forEach((label, replacement) -> {
        JsonNode replaced = root.deepCopy();
        JsonNode p = at(replaced, path.subList(0, path.size() - 1));
        if (p instanceof ObjectNode o) {
          o.set((String) last, replacement);
        } else if (p instanceof ArrayNode a) {
          a.set((Integer) last, replacement);
        }
        sink.accept(name + " = " + label, replaced);
      });
    }
  }

  private static String describe(List<Object> path) {
    StringBuilder b = new StringBuilder();
    for (Object key : path) {
      if (key instanceof Integer i) {
        b.append('[').append(i).append(']');
      } else {
        b.append(b.length() == 0 ? "" : ".").append(key);
      }
    }
    return b.toString();
  }

  private static void collectPaths(JsonNode node, List<Object> prefix, List<List<Object>> out) {
    if (node.isObject()) {
      node.properties().forEach(e -> {
        List<Object> p = new ArrayList<>(prefix);
        p.add(e.getKey());
        out.add(p);
        collectPaths(e.getValue(), p, out);
      });
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        List<Object> p = new ArrayList<>(prefix);
        p.add(i);
        out.add(p);
        collectPaths(node.get(i), p, out);
      }
    }
  }

  private static JsonNode at(JsonNode root, List<Object> path) {
    JsonNode n = root;
    for (Object key : path) {
      n = key instanceof Integer i ? n.get(i) : n.get((String) key);
    }
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // files

  static List<Path> healthDirs() {
    try (Stream<Path> dirs = Files.list(HEALTH_DIR)) {
      List<Path> result = dirs.filter(Files::isDirectory).sorted().toList();
      assertThat(result).as("health check directories under %s", HEALTH_DIR).isNotEmpty();
      for (Path dir : result) {
        assertThat(dir.resolve("health.lua")).isRegularFile();
        assertThat(dir.resolve("health_test.yaml")).isRegularFile();
      }
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> fixtures(Path dir) {
    try (Stream<Path> files = Files.list(dir.resolve("testdata"))) {
      return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode readYaml(Path file) {
    return readYamlString(read(file));
  }

  static JsonNode readYamlString(String yaml) {
    try {
      return YAML.readTree(yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
