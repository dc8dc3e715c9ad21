package dev.srt.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A build step after Fabric8's CRD generator: it puts the printer columns in the order the
 * {@link AdditionalPrinterColumn} annotations are declared (the generator sorts them by JSON path,
 * and {@code kubectl get} shows them in CRD order). Nothing else is changed.
 */
public final class CrdPostProcessor {
  private static final Map<String, Class<?>> KINDS = Map.of("RouterComparison", RouterComparison.class, "GpuCluster", GpuCluster.class);

  private CrdPostProcessor() {}

  public static void main(String[] args) throws IOException {
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));
    try (var files = Files.list(Path.of(args[0]))) {
      for (Path file : files.filter(f -> f.toString().endsWith("-v1.yml")).toList()) {
        String text = Files.readString(file);
        JsonNode crd = yaml.readTree(text);
        Class<?> type = KINDS.get(crd.path("spec").path("names").path("kind").asText());
        if (type == null) {
          continue;
        }
        List<String> order = new ArrayList<>();
        for (AdditionalPrinterColumn c : type.getAnnotationsByType(AdditionalPrinterColumn.class)) {
          order.add(c.name());
        }
        for (JsonNode version : crd.path("spec").path("versions")) {
          ArrayNode columns = (ArrayNode) version.get("additionalPrinterColumns");
          if (columns == null) {
            continue;
          }
          List<JsonNode> sorted = new ArrayList<>();
          columns.forEach(sorted::add);
          sorted.sort((a, b) -> Integer.compare(order.indexOf(a.path("name").asText()), order.indexOf(b.path("name").asText())));
          columns.removeAll();
          sorted.forEach(columns::add);
          ((ObjectNode) version).set("additionalPrinterColumns", columns);
        }
        String header = text.lines().takeWhile(l -> l.startsWith("#")).reduce("", (a, b) -> a + b + "\n");
        Files.writeString(file, header + yaml.writeValueAsString(crd));
      }
    }
  }
}
