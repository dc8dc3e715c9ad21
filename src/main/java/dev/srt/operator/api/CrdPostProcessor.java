package dev.srt.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A build step after Fabric8's CRD generator (args: the generator's output directory and the api
 * sources). It makes the resource class's Javadoc the description of the whole schema and each
 * field's Javadoc the description of its schema property, writes the closed set of each field that
 * declares one ({@link OneOf}) as its {@code enum}, and puts the printer columns in the order their
 * annotations are declared (the generator sorts them by JSON path; {@code kubectl get} shows them
 * in CRD order). Nothing else is changed.
 */
public final class CrdPostProcessor {
  private record Kind(Class<?> resource, Class<?> spec, Class<?> status) {}

  private static final Map<String, Kind> KINDS = Map.of(
      "RouterComparison", new Kind(RouterComparison.class, RouterComparisonSpec.class, RouterComparisonStatus.class),
      "GpuCluster", new Kind(GpuCluster.class, GpuClusterSpec.class, GpuClusterStatus.class));

  private CrdPostProcessor() {}

  public static void main(String[] args) throws IOException {
    FieldDocs docs = FieldDocs.read(Path.of(args[1]));
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));
    try (var files = Files.list(Path.of(args[0]))) {
      for (Path file : files.filter(f -> f.toString().endsWith("-v1.yml")).toList()) {
        String text = Files.readString(file);
        JsonNode crd = yaml.readTree(text);
        Kind kind = KINDS.get(crd.path("spec").path("names").path("kind").asText());
        if (kind == null) {
          continue;
        }
        for (JsonNode version : crd.path("spec").path("versions")) {
          orderColumns(kind.resource(), (ObjectNode) version);
          if (version.path("schema").get("openAPIV3Schema") instanceof ObjectNode schema && docs.ofClass(kind.resource()) != null) {
            describeFirst(schema, docs.ofClass(kind.resource()));
          }
          JsonNode root = version.path("schema").path("openAPIV3Schema").path("properties");
          describe(docs, root.path("spec"), kind.spec(), kind.resource(), "spec");
          describe(docs, root.path("status"), kind.status(), kind.resource(), "status");
        }
        String header = text.lines().takeWhile(l -> l.startsWith("#")).reduce("", (a, b) -> a + b + "\n");
        Files.writeString(file, header + yaml.writeValueAsString(crd));
      }
    }
  }

  /** Sets the description of {@code property} of {@code owner}, then of everything below it. */
  private static void describe(FieldDocs docs, JsonNode schema, Type type, Class<?> owner, String property) {
    if (!(schema instanceof ObjectNode node)) {
      return;
    }
    String doc = docs.of(owner, property);
    if (doc != null) {
      describeFirst(node, doc);
    }
    closedSet(node, owner, property);
    describeInside(docs, node, type);
  }

  /** Sets the description, first, where the generator puts it. */
  private static void describeFirst(ObjectNode node, String doc) {
    ObjectNode rest = node.deepCopy();
    rest.remove("description");
    node.removeAll();
    node.put("description", doc);
    node.setAll(rest);
  }

  /** The {@code enum} of a string property (or of a list's items) whose field declares {@link OneOf}. */
  private static void closedSet(ObjectNode node, Class<?> owner, String property) {
    Field field = field(owner, property);
    OneOf oneOf = field == null ? null : field.getAnnotation(OneOf.class);
    if (oneOf == null) {
      return;
    }
    ObjectNode target = "array".equals(node.path("type").asText()) ? (ObjectNode) node.get("items") : node;
    ArrayNode values = target.putArray("enum");
    Vocabulary.values(oneOf.value()).forEach(values::add);
  }

  private static void describeInside(FieldDocs docs, ObjectNode node, Type type) {
    if (type instanceof Class<?> c && c.isArray()) {
      describeInside(docs, (ObjectNode) node.path("items"), c.getComponentType());
    } else if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
      if (List.class.isAssignableFrom(raw) && node.get("items") instanceof ObjectNode items) {
        describeInside(docs, items, p.getActualTypeArguments()[0]);
      } else if (Map.class.isAssignableFrom(raw) && node.get("additionalProperties") instanceof ObjectNode values) {
        describeInside(docs, values, p.getActualTypeArguments()[1]);
      }
    } else if (type instanceof Class<?> c && c.getPackageName().equals(CrdPostProcessor.class.getPackageName())
        && node.get("properties") instanceof ObjectNode properties) {
      for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        describe(docs, e.getValue(), fieldType(c, e.getKey()), c, e.getKey());
      }
    }
  }

  /** The declared type of the field behind a property, or the type its @SchemaFrom names. */
  private static Type fieldType(Class<?> c, String property) {
    Field f = field(c, property);
    if (f == null) {
      return Object.class;
    }
    SchemaFrom from = f.getAnnotation(SchemaFrom.class);
    return from != null ? from.type() : f.getGenericType();
  }

  /** The public field behind a property, or null. */
  private static Field field(Class<?> c, String property) {
    for (Field f : c.getFields()) {
      com.fasterxml.jackson.annotation.JsonProperty json = f.getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
      if (f.getName().equals(property) || (json != null && json.value().equals(property))) {
        return f;
      }
    }
    return null;
  }

  private static void orderColumns(Class<?> resource, ObjectNode version) {
    List<String> order = new ArrayList<>();
    for (AdditionalPrinterColumn c : resource.getAnnotationsByType(AdditionalPrinterColumn.class)) {
      order.add(c.name());
    }
    ArrayNode columns = (ArrayNode) version.get("additionalPrinterColumns");
    if (columns == null) {
      return;
    }
    List<JsonNode> sorted = new ArrayList<>();
    columns.forEach(sorted::add);
    sorted.sort((a, b) -> Integer.compare(order.indexOf(a.path("name").asText()), order.indexOf(b.path("name").asText())));
    columns.removeAll();
    sorted.forEach(columns::add);
  }
}
