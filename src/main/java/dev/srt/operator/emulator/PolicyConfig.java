package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Dynamo's {@code --router-policy-config} YAML, reduced to what decides routing: the
 * {@code worker_selection} instance for a stage ({@code aggregated}, {@code prefill} or
 * {@code decode}; else {@code default}), overridable with
 * {@code DYN_ROUTER_WORKER_SELECTION_POLICY}. As in Dynamo, every instance's type must be linked
 * into the installed runtime wheel, or start-up fails with the list of linked types.
 */
public record PolicyConfig(String instanceName, String type, JsonNode parameters) {
  /** The instance name that selects Dynamo's built-in selector instead of a configured one. */
  public static final String BUILT_IN = "default";

  public static PolicyConfig load(Path yaml, Map<String, String> env, List<String> linkedTypes) throws IOException {
    return load(yaml, env, linkedTypes, "aggregated");
  }

  public static PolicyConfig load(Path yaml, Map<String, String> env, List<String> linkedTypes, String stage)
      throws IOException {
    JsonNode root = Mappers.yaml().readTree(yaml.toFile());
    JsonNode ws = root == null ? null : root.get("worker_selection");
    if (ws == null || !ws.isObject()) {
      return new PolicyConfig(BUILT_IN, null, null);
    }
    for (JsonNode inst : ws.path("instances")) {
      String type = inst.path("type").asText();
      if (!linkedTypes.contains(type)) {
        throw new IllegalArgumentException("unknown worker selection policy type '" + type + "'; linked types: " + linkedTypes);
      }
    }
    String name = env.getOrDefault("DYN_ROUTER_WORKER_SELECTION_POLICY",
        ws.path(stage).asText(ws.path("default").asText(BUILT_IN)));
    if (name.equals(BUILT_IN)) {
      return new PolicyConfig(BUILT_IN, null, null);
    }
    for (JsonNode inst : ws.path("instances")) {
      if (inst.path("name").asText().equals(name)) {
        PolicyConfig c = new PolicyConfig(name, inst.path("type").asText(), inst.path("parameters"));
        c.policy(); // parameters are checked at start-up, as Dynamo does
        return c;
      }
    }
    throw new IllegalArgumentException("worker selection instance '" + name + "' is not defined under worker_selection.instances");
  }

  public boolean builtIn() {
    return type == null;
  }

  /** The rule this instance runs; types the emulator does not know fall back to least-loaded. */
  public RoutingPolicy policy() {
    return switch (type) {
      case "sgl-router-cache-aware" -> {
        allowOnly(Set.of());
        yield RoutingPolicy.TwoTierCacheAware.sglRouterDefaults();
      }
      case "dynamo-two-tier-cost-fn" -> twoTier(0.5, 32, 1.1);
      case "sglang-cache-aware" -> twoTier(0.3, 64, 1.5);
      case "dynamo-default-cost-fn" -> new RoutingPolicy.KvCost(number("prefill_load_scale", 1.0), new RoutingPolicy.TieBreaker());
      case "dynamo-round-robin" -> RoutingPolicy.roundRobin();
      case "dynamo-random" -> RoutingPolicy.random(Math.round(number("seed", 42)));
      default -> RoutingPolicy.leastLoaded();
    };
  }

  private RoutingPolicy twoTier(double threshold, int abs, double rel) {
    allowOnly(Set.of("cache_threshold", "balance_abs_threshold", "balance_rel_threshold", "adaptive"));
    double t = number("cache_threshold", threshold);
    if (t < 0 || t > 1) {
      throw new IllegalArgumentException("policy " + instanceName + ": cache_threshold must be within [0, 1], got " + t);
    }
    return new RoutingPolicy.TwoTierCacheAware(t, (int) number("balance_abs_threshold", abs),
        number("balance_rel_threshold", rel), new RoutingPolicy.TieBreaker());
  }

  private void allowOnly(Set<String> keys) {
    List<String> unknown = new ArrayList<>();
    if (parameters != null && parameters.isObject()) {
      for (Iterator<String> it = parameters.fieldNames(); it.hasNext(); ) {
        String k = it.next();
        if (!keys.contains(k)) {
          unknown.add(k);
        }
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("policy " + instanceName + " (" + type + "): unknown parameter '" + unknown.get(0) + "'");
    }
  }

  private double number(String key, double fallback) {
    return parameters != null && parameters.has(key) ? parameters.get(key).asDouble() : fallback;
  }
}
