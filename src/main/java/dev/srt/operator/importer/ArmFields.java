package dev.srt.operator.importer;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.srt.operator.config.FrontendRules;
import dev.srt.operator.config.Problem;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The routing fields of one recipe (its name, frontend and Dynamo use), mapped onto one arm. The
 * Dynamo install fields are shared by every Dynamo arm in a RouterComparison ({@code spec.dynamo});
 * {@link Finish} writes them once, after checking that the Dynamo arms agree on them.
 */
final class ArmFields {
  /** srtctl's frontend types and the router kinds they become: each registered kind names its own. */
  static final Map<String, String> FRONTEND_TYPES = frontendTypes();
  /** Dynamo fields that are one for the whole comparison: the install and the planes. */
  static final Set<String> SHARED_DYNAMO = Set.of("install", "version", "hash", "top_of_tree", "wheel", "request_plane",
      "event_plane", "sidecar_port", "sidecar_startup_timeout", "cargo_patches");
  private static final Map<String, String> CATALOG = Map.of("git", "git", "path", "path", "rev", "rev",
      "crate_subdir", "crateSubdir", "package", "package", "config", "config", "features", "features");

  private ArmFields() {}

  private static Map<String, String> frontendTypes() {
    Map<String, String> types = new java.util.LinkedHashMap<>();
    FrontendRules.all().values().stream().filter(k -> k.srtctlType() != null).forEach(k -> types.put(k.srtctlType(), k.type()));
    return java.util.Collections.unmodifiableMap(types);
  }

  /** "sgl-router, dynamo, sglang (the SGLang Model Gateway)": what the message of an unknown type lists. */
  private static String importedTypes() {
    return String.join(", ", FrontendRules.all().values().stream().filter(k -> k.srtctlType() != null)
        .map(k -> k.srtctlType() + (k.srtctlDescription().isEmpty() ? "" : " (" + k.srtctlDescription() + ")")).toList());
  }

  /** srtctl's default frontend is dynamo. */
  static String srtctlType(Recipe r) {
    String t = r.text("frontend.type");
    return t == null ? "dynamo" : t;
  }

  static ObjectNode map(Recipe r, Draft d) {
    ObjectNode arm = Draft.NODES.objectNode();
    String type = srtctlType(r);
    String kind = FRONTEND_TYPES.get(type);
    Recipe.Leaf name = r.get("name");
    if (name == null || name.value().isNull()) {
      d.problems.add(Problem.error("name", "is required: it names the arm").at(r.locate("name")));
    } else {
      arm.put("name", armName(name.value().asText()));
    }
    if (kind == null) {
      d.problems.add(Problem.error("frontend.type", (r.get("frontend.type") == null ? "" : type + " is ")
          + "not a router srt-operator compares; srtctl frontend types it imports: " + importedTypes())
          .at(r.locate("frontend.type")));
    }
    Draft.set(arm, "frontend", "type", TextNode.valueOf(kind == null ? type : kind));
    for (Recipe.Leaf l : r.leaves.values()) {
      if (l.path().startsWith("frontend.") && !l.path().equals("frontend.type")) {
        frontend(l, arm, d);
      } else if (l.path().startsWith("dynamo.")) {
        dynamo(l, r, arm, d, "dynamo".equals(kind));
      }
    }
    return arm;
  }

  /** A DNS label, as arm names are; srtctl names often use '_' or capitals. */
  static String armName(String name) {
    String label = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
    return label.length() > 63 ? label.substring(0, 63).replaceAll("-+$", "") : label;
  }

  private static void frontend(Recipe.Leaf l, ObjectNode arm, Draft d) {
    String field = l.path().substring("frontend.".length());
    if (field.startsWith("args.")) {
      Draft.set(arm, "frontend.args", l.key(), l.value());
    } else if (field.startsWith("env.")) {
      d.env(arm, "frontend.env", l);
    } else if (field.equals("source") || field.equals("binary")) {
      Draft.set(arm, "frontend", field, l.value());
    } else if (field.equals("enable_multiple_frontends") || field.equals("num_additional_frontends") || field.startsWith("nginx_")
        || field.equals("orchestrator_placement") || field.equals("dedicated_node")) {
      d.ignore(l, SharedFields.ONE_ROUTER);
    } else if (field.equals("ctx_router") || field.equals("gen_router") || field.equals("server_config_extra")) {
      d.ignore(l, "used by srtctl's trtllm_serve frontend only");
    } else {
      d.ignore(l, "not an srtctl frontend field the importer knows");
    }
  }

  private static void dynamo(Recipe.Leaf l, Recipe r, ObjectNode arm, Draft d, boolean dynamoArm) {
    String field = l.path().substring("dynamo.".length());
    if (!dynamoArm) {
      d.ignore(l, "only arms with frontend.type: dynamo use Dynamo (srtctl applies dynamo to them only)");
      return;
    }
    String top = field.contains(".") ? field.substring(0, field.indexOf('.')) : field;
    if (SHARED_DYNAMO.contains(top)) {
      return; // Finish: one spec.dynamo for every Dynamo arm
    }
    switch (top) {
      case "sidecar" -> {
        if (l.value().asBoolean()) {
          Draft.set(arm, "dynamo.sidecar", "enabled", BooleanNode.TRUE);
        }
      }
      case "sidecar_args" -> {
        if (r.get("dynamo.sidecar") != null && r.get("dynamo.sidecar").value().asBoolean()) {
          Draft.set(arm, "dynamo.sidecar", "args", l.value());
        } else {
          d.ignore(l, "used only with dynamo.sidecar: true");
        }
      }
      case "policy_catalog" -> {
        String key = CATALOG.get(field.substring("policy_catalog.".length()));
        if (key == null) {
          d.ignore(l, "not an srtctl policy_catalog field the importer knows");
        } else {
          Draft.set(arm, "dynamo.policyCatalog", key, l.value());
        }
      }
      case "sidecar_binary" -> d.error(l, "a prebuilt sidecar is not supported: srt-operator runs python -m dynamo.sglang.sidecar");
      default -> d.ignore(l, "not an srtctl dynamo field the importer knows");
    }
  }
}
