package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * pip without an index: {@code install} records packages in {@code packages.json} (reading what an
 * emulator-built runtime wheel linked), {@code wheel} packs a source tree, and {@code uninstall},
 * {@code list}, {@code freeze} and {@code show} read the record. Installing {@code ai-dynamo} also
 * drops a stub {@code dynamo} package into {@code <state>/site}, which the python shim puts on
 * PYTHONPATH, so {@code python3 -c 'import dynamo'} agrees with the record; a source install
 * ({@code -e DIR}, {@code DIR}) adds its import root to {@code <state>/import-roots}, which the shim
 * appends to PYTHONPATH. With {@code --target DIR} the record and the stub go to DIR instead, as
 * real pip puts the packages there and leaves the environment alone.
 */
final class PipTool {
  private final BuildTools.Context ctx;

  PipTool(BuildTools.Context ctx) {
    this.ctx = ctx;
  }

  int run(List<String> argv) throws BuildTools.ToolFailure, IOException {
    if (argv.isEmpty() || argv.get(0).equals("--version") || argv.get(0).equals("-V")) {
      ctx.out().println("pip 24.0 from " + ctx.state().dir() + " (emulated by srt-operator)");
      return 0;
    }
    List<String> rest = argv.subList(1, argv.size());
    return switch (argv.get(0)) {
      case "install" -> install(rest);
      case "wheel" -> wheel(rest);
      case "uninstall" -> uninstall(rest);
      case "list", "freeze" -> list(argv.get(0));
      case "show" -> show(rest);
      default -> throw new BuildTools.ToolFailure(1, "ERROR: pip (emulated) does not support `" + argv.get(0) + "`");
    };
  }

  private static ArgParser options(String command) {
    return new ArgParser("pip " + command).withPositionals()
        .list("--editable", "-e").value("--extra-index-url").value("--index-url", "-i").value("--constraint", "-c")
        .value("--requirement", "-r").value("--target", "-t").value("--prefix").value("--root").value("--find-links", "-f")
        .value("--wheel-dir", "-w").value("--python").value("--config-settings", "-C");
  }

  private int install(List<String> args) throws BuildTools.ToolFailure, IOException {
    ArgParser.Parsed a = options("install").parse(args);
    List<ObjectNode> records = new ArrayList<>();
    for (String spec : a.positional()) {
      records.add(spec.endsWith(".whl") ? fromWheel(ctx.resolve(spec))
          : looksLikePath(spec) ? fromSource(ctx.resolve(spec), false)
          : fromIndex(spec));
    }
    for (String e : a.list("--editable")) {
      records.add(fromSource(ctx.resolve(e), true));
    }
    if (records.isEmpty() && !a.has("--requirement")) {
      throw new BuildTools.ToolFailure(1, "ERROR: You must give at least one requirement to install (see \"pip help install\")");
    }
    // --target DIR: the packages land in DIR (importable with DIR on PYTHONPATH), not in the environment.
    Optional<Path> target = Optional.ofNullable(a.get("--target", null)).map(ctx::resolve);
    EmulatorState store = target.map(EmulatorState::new).orElse(ctx.state());
    store.updatePackages(pkgs -> records.forEach(r -> pkgs.set(r.path("name").asText(), r)));
    for (ObjectNode r : records) {
      if (r.has("import_root") && target.isEmpty()) {
        ctx.state().addImportRoot(Path.of(r.get("import_root").asText()));
      }
    }
    writeImportStubs(store, target.orElse(ctx.state().dir().resolve("site")));
    List<String> names = records.stream().map(r -> r.path("name").asText() + "-" + r.path("version").asText()).toList();
    ctx.out().println("Successfully installed " + String.join(" ", names));
    return 0;
  }

  private static boolean looksLikePath(String spec) {
    return spec.startsWith("/") || spec.startsWith(".") || spec.contains("/");
  }

  private ObjectNode fromWheel(Path wheel) throws BuildTools.ToolFailure, IOException {
    Wheels.Name name = Wheels.Name.parse(wheel.getFileName().toString())
        .orElseThrow(() -> new BuildTools.ToolFailure(1, "ERROR: " + wheel.getFileName() + " is not a valid wheel filename."));
    if (!Files.isRegularFile(wheel)) {
      throw new BuildTools.ToolFailure(1, "WARNING: Requirement '" + wheel + "' looks like a filename, but the file does not exist\n"
          + "ERROR: " + wheel.getFileName() + " is not a valid wheel filename.");
    }
    ObjectNode r = record(name.distribution(), name.version(), "wheel:" + wheel);
    Optional<JsonNode> info = Wheels.emulatorInfo(wheel);
    if (name.distribution().equals(DynamoInstall.RUNTIME)) {
      JsonNode i = info.orElseGet(Json::object);
      r.set("policy_types", i.has("policy_types") ? i.get("policy_types") : builtinTypes());
      r.set("linked_catalog", i.path("linked_catalog").isObject() ? i.get("linked_catalog") : Json.object().nullNode());
    }
    return r;
  }

  /** From the index: what upstream publishes, a runtime with the builtin policies only. */
  private ObjectNode fromIndex(String spec) {
    String[] nv = spec.split("==", 2);
    String name = nv[0].replaceAll("[<>=!~;\\[].*$", "").trim().toLowerCase().replace('_', '-');
    ObjectNode r = record(name, nv.length > 1 ? nv[1].trim() : "latest", "index");
    if (name.equals(DynamoInstall.RUNTIME)) {
      r.set("policy_types", builtinTypes());
      r.putNull("linked_catalog");
    }
    return r;
  }

  private ObjectNode fromSource(Path dir, boolean editable) throws BuildTools.ToolFailure, IOException {
    Path pyproject = dir.resolve("pyproject.toml");
    if (!Files.isRegularFile(pyproject)) {
      throw new BuildTools.ToolFailure(1, "ERROR: Directory '" + dir + "' is not installable. Neither 'setup.py' nor 'pyproject.toml' found.");
    }
    TomlLines p = TomlLines.read(pyproject);
    String name = p.get("project", "name").map(TomlLines.Entry::text).orElse(dir.getFileName().toString());
    ObjectNode r = record(name, p.get("project", "version").map(TomlLines.Entry::text).orElse("0.0.0"),
        (editable ? "editable:" : "source:") + dir);
    // a source install makes its packages importable (src/ layout or flat)
    r.put("import_root", (Files.isDirectory(dir.resolve("src")) ? dir.resolve("src") : dir).toString());
    if (name.equals(DynamoInstall.RUNTIME)) {
      r.set("policy_types", builtinTypes());
      r.putNull("linked_catalog");
    }
    return r;
  }

  private static ObjectNode record(String name, String version, String source) {
    return Json.object().put("name", name).put("version", version).put("source", source);
  }

  private static JsonNode builtinTypes() {
    var a = Json.array();
    DynamoInstall.BUILTIN_POLICY_TYPES.forEach(a::add);
    return a;
  }

  /**
   * Keeps {@code <site>/dynamo} in step with the store's record: importable exactly when
   * installed; and every recorded package's metadata, which {@code importlib.metadata} reads.
   */
  private static void writeImportStubs(EmulatorState store, Path siteDir) throws IOException {
    ObjectNode pkgs = store.packages();
    Map<String, String> versions = new java.util.TreeMap<>();
    pkgs.properties().forEach(e -> versions.put(e.getKey(), e.getValue().path("version").asText()));
    DistInfo.sync(siteDir, versions);
    Path site = siteDir.resolve("dynamo");
    Path init = site.resolve("__init__.py");
    Path core = site.resolve("_core.py");
    Files.deleteIfExists(core);
    Files.deleteIfExists(init);
    if (pkgs.has(DynamoInstall.PYTHON_PACKAGE)) {
      Files.createDirectories(site);
      Files.writeString(init, "# stub written by the srt-operator emulator's pip\n");
      if (pkgs.has(DynamoInstall.RUNTIME)) {
        Files.writeString(core, "# stub written by the srt-operator emulator's pip\n");
      }
    }
  }

  private int wheel(List<String> args) throws BuildTools.ToolFailure, IOException {
    ArgParser.Parsed a = options("wheel").parse(args);
    Path out = ctx.resolve(a.get("--wheel-dir", "."));
    if (a.positional().isEmpty()) {
      throw new BuildTools.ToolFailure(1, "ERROR: You must give at least one requirement to wheel");
    }
    for (String src : a.positional()) {
      ObjectNode r = fromSource(ctx.resolve(src), false);
      Path w = Wheels.write(out, r.path("name").asText(), r.path("version").asText(), "py3-none-any", r);
      ctx.out().println("Saved " + w);
    }
    return 0;
  }

  private int uninstall(List<String> args) throws IOException {
    List<String> names = new ArgParser("pip uninstall").withPositionals().parse(args).positional();
    ctx.state().updatePackages(pkgs -> names.forEach(n -> pkgs.remove(n.toLowerCase().replace('_', '-'))));
    writeImportStubs(ctx.state(), ctx.state().dir().resolve("site"));
    names.forEach(n -> ctx.out().println("Successfully uninstalled " + n));
    return 0;
  }

  private int list(String style) {
    for (Map.Entry<String, JsonNode> e : ctx.state().packages().properties()) {
      String v = e.getValue().path("version").asText();
      ctx.out().println(style.equals("freeze") ? e.getKey() + "==" + v : String.format("%-30s %s", e.getKey(), v));
    }
    return 0;
  }

  private int show(List<String> args) {
    ObjectNode pkgs = ctx.state().packages();
    int code = 0;
    for (String n : new ArgParser("pip show").withPositionals().parse(args).positional()) {
      JsonNode r = pkgs.get(n.toLowerCase().replace('_', '-'));
      if (r == null) {
        ctx.err().println("WARNING: Package(s) not found: " + n);
        code = 1;
      } else {
        ctx.out().println("Name: " + r.path("name").asText() + "\nVersion: " + r.path("version").asText()
            + "\nLocation: " + r.path("source").asText());
      }
    }
    return code;
  }
}
