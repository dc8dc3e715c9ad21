package dev.srt.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.Api;

/**
 * Objects of other APIs in a multi-document file (a Secret, a Namespace, a ConfigMap, ...), as a
 * bundle made for {@code kubectl apply -f} holds them: srt-operator reads only its own kinds and
 * leaves these alone. An object of the srt.dev group with a kind it does not know stays an error.
 */
final class OtherKinds {
  private OtherKinds() {}

  /** A Kubernetes object (apiVersion and kind) of another API group than srt.dev. */
  static boolean isOther(JsonNode tree) {
    JsonNode apiVersion = tree.get("apiVersion");
    JsonNode kind = tree.get("kind");
    if (apiVersion == null || !apiVersion.isTextual() || kind == null || !kind.isTextual() || kind.asText().isBlank()) {
      return false;
    }
    String version = apiVersion.asText();
    String group = version.contains("/") ? version.substring(0, version.indexOf('/')) : "";
    return !group.equals(Api.GROUP);
  }

  /** {@code Secret h100-box-ssh (bundle.yaml:12)}. */
  static String describe(JsonNode tree, Problem.Location at) {
    String name = tree.path("metadata").path("name").asText("");
    return Echo.value(tree.get("kind").asText()) + (name.isEmpty() ? "" : " " + Echo.value(name)) + " (" + at.file() + ":" + at.line() + ")";
  }
}
