package dev.srt.operator.testinfra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** {@code kubectl kustomize DIR} (kubectl's built-in kustomize; no cluster needed): the objects it renders, by {@code Kind/name}. */
public final class Kustomize {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Kustomize() {}

  public static Map<String, JsonNode> build(Path dir) throws Exception {
    Process p = new ProcessBuilder("kubectl", "kustomize", dir.toString()).start();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("kubectl kustomize: %s", err).isZero();
    Map<String, JsonNode> byKindName = new LinkedHashMap<>();
    try (var parser = YAML.getFactory().createParser(out)) {
      YAML.readValues(parser, JsonNode.class).forEachRemaining(d ->
          byKindName.put(d.path("kind").asText() + "/" + d.path("metadata").path("name").asText(), d));
    }
    return byKindName;
  }
}
