package dev.srt.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.srt.operator.cli.CrdsCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * A generated CRD as the API server sees it: its openAPIV3Schema, the x-kubernetes-validations
 * rules at each schema node, the CEL type of each node (as Kubernetes declares {@code self}), and
 * the structural checks the server makes before it runs the rules.
 */
final class CrdSchema {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  /** Fields every resource root has, even though the generated schema does not declare them. */
  private static final Set<String> ROOT_FIELDS = Set.of("apiVersion", "kind", "metadata");
  private static final Set<String> CEL_RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const",
      "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return",
      "var", "void", "while");
  private static final Pattern CEL_ESCAPABLE = Pattern.compile("[a-zA-Z_.\\-/][a-zA-Z0-9_.\\-/]*");

  final String resource;
  final JsonNode crd;
  final String kind;
  final JsonNode version;
  final JsonNode root;

  /** One x-kubernetes-validations entry and the schema node it sits on. */
  record Rule(CrdSchema crd, String schemaPath, JsonNode schema, String rule, String message, String fieldPath) {
    /** Unique name of the rule: kind, where it sits, and its text. */
    String id() {
      return crd.kind + " " + (schemaPath.isEmpty() ? "<root>" : schemaPath) + ": " + rule;
    }

    @Override
    public String toString() {
      return id();
    }
  }

  /** A value of the document at a schema node; {@code path} is the field path, "" for the root. */
  record Instance(String path, JsonNode schema, JsonNode value) {}

  private CrdSchema(String resource, JsonNode crd) {
    this.resource = resource;
    this.crd = crd;
    this.kind = crd.at("/spec/names/kind").asText();
    this.version = crd.at("/spec/versions/0");
    this.root = version.at("/schema/openAPIV3Schema");
  }

  static CrdSchema load(String resource) {
    try (InputStream in = CrdSchema.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the classpath; run the build (the crd-generator plugin writes it)");
      }
      return new CrdSchema(resource, YAML.readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<CrdSchema> all() {
    return CrdsCommand.RESOURCES.stream().map(CrdSchema::load).toList();
  }

  static Optional<CrdSchema> forKind(List<CrdSchema> crds, String kind) {
    return crds.stream().filter(c -> c.kind.equals(kind)).findFirst();
  }

  // ---- rules -------------------------------------------------------------------------------

  List<Rule> rules() {
    List<Rule> out = new ArrayList<>();
    forEachNode((path, node) -> {
      for (JsonNode r : node.path("x-kubernetes-validations")) {
        out.add(new Rule(this, path, node, r.path("rule").asText(), r.path("message").asText(null),
            r.path("fieldPath").asText(null)));
      }
    });
    return out;
  }

  /** Every schema node with its path: properties by name, list items and map values as {@code [*]}. */
  void forEachNode(BiConsumer<String, JsonNode> visitor) {
    walk("", root, visitor);
  }

  /** Every declared property (not list items or map values themselves) with its path. */
  void forEachProperty(BiConsumer<String, JsonNode> visitor) {
    forEachNode((path, node) -> node.path("properties").fields()
        .forEachRemaining(e -> visitor.accept(join(path, e.getKey()), e.getValue())));
  }

  private static void walk(String path, JsonNode node, BiConsumer<String, JsonNode> visitor) {
    visitor.accept(path, node);
    node.path("properties").fields().forEachRemaining(e -> walk(join(path, e.getKey()), e.getValue(), visitor));
    if (node.path("items").isObject()) {
      walk(path + "[*]", node.get("items"), visitor);
    }
    if (node.path("additionalProperties").isObject()) {
      walk(path + "[*]", node.get("additionalProperties"), visitor);
    }
  }

  /**
   * Whether a rule's fieldPath names a property declared under its node (the API server rejects the
   * CRD otherwise).
   */
  static boolean fieldPathDeclared(JsonNode node, String fieldPath) {
    if (!fieldPath.startsWith(".")) {
      return false;
    }
    JsonNode at = node;
    for (String name : fieldPath.substring(1).split("\\.", -1)) {
      at = at.path("properties").path(name);
      if (at.isMissingNode()) {
        return false;
      }
    }
    return true;
  }

  // ---- instances ---------------------------------------------------------------------------

  /** The values of a document at each schema node, outermost first; absent values have none. */
  List<Instance> instances(JsonNode doc) {
    List<Instance> out = new ArrayList<>();
    visit("", root, doc, out);
    return out;
  }

  private static void visit(String path, JsonNode schema, JsonNode value, List<Instance> out) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return;
    }
    out.add(new Instance(path, schema, value));
    if (value.isObject()) {
      if (schema.path("properties").isObject()) {
        schema.get("properties").fields().forEachRemaining(
            e -> visit(join(path, e.getKey()), e.getValue(), value.get(e.getKey()), out));
      }
      if (schema.path("additionalProperties").isObject()) {
        value.fields().forEachRemaining(
            e -> visit(path + "[" + e.getKey() + "]", schema.get("additionalProperties"), e.getValue(), out));
      }
    } else if (value.isArray() && schema.path("items").isObject()) {
      for (int i = 0; i < value.size(); i++) {
        visit(path + "[" + i + "]", schema.get("items"), value.get(i), out);
      }
    }
  }

  // ---- CEL types and values, as Kubernetes declares them (SchemaDeclType) -------------------

  /**
   * The CEL type of a schema node, or empty when Kubernetes does not expose the node to CEL: a
   * schema without a type (x-kubernetes-preserve-unknown-fields) is invisible, and so are lists and
   * maps of such schemas. Object types are registered in {@code structs} by name.
   */
  Optional<CelType> celType(String path, JsonNode schema, boolean resourceRoot, Map<String, CelType> structs) {
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      return Optional.of(SimpleType.DYN);
    }
    switch (schema.path("type").asText("")) {
      case "array" -> {
        if (!schema.path("items").isObject()) {
          return Optional.empty();
        }
        return celType(path + "[*]", schema.get("items"), false, structs).map(ListType::create);
      }
      case "object" -> {
        if (schema.path("additionalProperties").isObject()) {
          return celType(path + "[*]", schema.get("additionalProperties"), false, structs)
              .map(v -> MapType.create(SimpleType.STRING, v));
        }
        Map<String, CelType> fields = new LinkedHashMap<>();
        if (resourceRoot) {
          fields.put("apiVersion", SimpleType.STRING);
          fields.put("kind", SimpleType.STRING);
          String meta = "srt.dev." + kind + ".metadata";
          Map<String, CelType> metaFields = Map.of("name", SimpleType.STRING, "generateName", SimpleType.STRING);
          StructType metaType = StructType.create(meta, com.google.common.collect.ImmutableSet.copyOf(metaFields.keySet()),
              f -> Optional.ofNullable(metaFields.get(f)));
          structs.put(meta, metaType);
          fields.put("metadata", metaType);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          String name = escape(e.getKey());
          if (name != null) {
            celType(join(path, e.getKey()), e.getValue(), false, structs).ifPresent(t -> fields.put(name, t));
          }
        }
        String typeName = "srt.dev." + kind + (path.isEmpty() ? "" : "." + path.replace("[*]", "_items"));
        StructType type = StructType.create(typeName, com.google.common.collect.ImmutableSet.copyOf(fields.keySet()),
            f -> Optional.ofNullable(fields.get(f)));
        structs.put(typeName, type);
        return Optional.of(type);
      }
      case "string" -> {
        return Optional.of(SimpleType.STRING);
      }
      case "boolean" -> {
        return Optional.of(SimpleType.BOOL);
      }
      case "integer" -> {
        return Optional.of(SimpleType.INT);
      }
      case "number" -> {
        return Optional.of(SimpleType.DOUBLE);
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  /**
   * The value CEL sees for {@code value} at {@code schema}: Maps, Lists, Strings, Longs, Doubles and
   * Booleans, with undeclared fields pruned and field names escaped as Kubernetes does.
   */
  Object celValue(JsonNode schema, JsonNode value, boolean resourceRoot) {
    if (value.isObject()) {
      Map<String, Object> out = new LinkedHashMap<>();
      if (schema.path("additionalProperties").isObject()) {
        value.fields().forEachRemaining(e -> {
          if (!e.getValue().isNull()) {
            out.put(e.getKey(), celValue(schema.get("additionalProperties"), e.getValue(), false));
          }
        });
        return out;
      }
      if (resourceRoot) {
        for (String f : List.of("apiVersion", "kind")) {
          if (value.path(f).isTextual()) {
            out.put(f, value.get(f).asText());
          }
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        for (String f : List.of("name", "generateName")) {
          if (value.path("metadata").path(f).isTextual()) {
            meta.put(f, value.path("metadata").get(f).asText());
          }
        }
        out.put("metadata", meta);
      }
      schema.path("properties").fields().forEachRemaining(e -> {
        JsonNode v = value.get(e.getKey());
        String name = escape(e.getKey());
        boolean exposed = e.getValue().has("type") || e.getValue().path("x-kubernetes-int-or-string").asBoolean(false);
        if (v != null && !v.isNull() && name != null && exposed) {
          out.put(name, celValue(e.getValue(), v, false));
        }
      });
      return out;
    }
    if (value.isArray()) {
      List<Object> out = new ArrayList<>();
      value.forEach(v -> out.add(celValue(schema.path("items"), v, false)));
      return out;
    }
    // The API server gives a number-typed field to CEL as a double, written as 8 or as 8.0.
    if (value.isIntegralNumber() && !"number".equals(schema.path("type").asText())) {
      return value.asLong();
    }
    if (value.isNumber()) {
      return value.asDouble();
    }
    if (value.isBoolean()) {
      return value.asBoolean();
    }
    return value.asText();
  }

  /** Kubernetes' escaping of property names for CEL, or null when the name cannot be expressed. */
  static String escape(String name) {
    if (CEL_RESERVED.contains(name)) {
      return "__" + name + "__";
    }
    if (!CEL_ESCAPABLE.matcher(name).matches()) {
      return null;
    }
    return name.replace("__", "__underscores__").replace(".", "__dot__").replace("-", "__dash__").replace("/", "__slash__");
  }

  // ---- structural validation ---------------------------------------------------------------

  /**
   * What the API server's structural schema rejects in the document, as {@code path: keyword}
   * (keywords: type, required, unknown, minItems, maxItems, minimum, maximum, minLength, maxLength, enum).
   * Unknown fields count as errors, as with kubectl's default strict field validation.
   */
  List<String> structuralProblems(JsonNode doc) {
    List<String> out = new ArrayList<>();
    check("", root, doc, out);
    return out;
  }

  private void check(String path, JsonNode schema, JsonNode value, List<String> out) {
    if (value == null || value.isNull()) {
      return;
    }
    String type = schema.path("type").asText("");
    boolean typeOk = switch (type) {
      case "object" -> value.isObject();
      case "array" -> value.isArray();
      case "string" -> value.isTextual();
      case "integer" -> value.isIntegralNumber();
      case "number" -> value.isNumber();
      case "boolean" -> value.isBoolean();
      default -> true;
    };
    if (!typeOk) {
      out.add(path + ": type");
      return;
    }
    if (value.isObject()) {
      for (JsonNode r : schema.path("required")) {
        if (!value.has(r.asText()) || value.get(r.asText()).isNull()) {
          out.add(join(path, r.asText()) + ": required");
        }
      }
      boolean open = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
          || schema.path("additionalProperties").isObject();
      value.fields().forEachRemaining(e -> {
        JsonNode property = schema.path("properties").get(e.getKey());
        String child = join(path, e.getKey());
        if (property != null) {
          check(child, property, e.getValue(), out);
        } else if (schema.path("additionalProperties").isObject()) {
          check(path + "[" + e.getKey() + "]", schema.get("additionalProperties"), e.getValue(), out);
        } else if (!open && !(schema == root && ROOT_FIELDS.contains(e.getKey()))) {
          out.add(child + ": unknown");
        }
      });
    } else if (value.isArray()) {
      if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
        out.add(path + ": minItems");
      }
      if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
        out.add(path + ": maxItems");
      }
      for (int i = 0; i < value.size(); i++) {
        if (schema.path("items").isObject()) {
          check(path + "[" + i + "]", schema.get("items"), value.get(i), out);
        }
      }
    } else if (value.isNumber()) {
      if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()) {
        out.add(path + ": minimum");
      }
      if (schema.has("maximum") && value.asDouble() > schema.get("maximum").asDouble()) {
        out.add(path + ": maximum");
      }
    } else if (value.isTextual()) {
      int length = value.asText().codePointCount(0, value.asText().length());
      if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
        out.add(path + ": minLength");
      }
      if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
        out.add(path + ": maxLength");
      }
      if (schema.has("enum") && java.util.stream.StreamSupport.stream(schema.get("enum").spliterator(), false).noneMatch(value::equals)) {
        out.add(path + ": enum");
      }
    }
  }

  static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
