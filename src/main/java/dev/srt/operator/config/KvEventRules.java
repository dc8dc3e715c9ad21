package dev.srt.operator.config;

import dev.srt.operator.api.KvEventsSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.List;
import java.util.Map;

/**
 * What a KV-aware routing choice needs of the shared spec: workers that publish KV events. Without
 * them the router still starts and routes, but on load alone (or a guess), so the arm would not
 * measure the policy it names; a warning, as the comparison may mean exactly that.
 */
public final class KvEventRules {
  private KvEventRules() {}

  /** Whether the workers publish KV events ({@code spec.backend.kvEvents}, not disabled). */
  public static boolean published(RouterComparisonSpec spec) {
    KvEventsSpec kv = spec.backend == null ? null : spec.backend.kvEvents;
    return kv != null && kv.enabledOrDefault();
  }

  /**
   * Warns at the flag {@code key} of {@code args} (path {@code p}, key as written) that {@code
   * choice} needs KV events the workers do not publish.
   */
  public static void requirePublished(List<Problem> out, String p, Map<String, Object> args, String key, String choice,
      RouterComparisonSpec spec) {
    if (published(spec)) {
      return;
    }
    String written = args.keySet().stream().filter(k -> k.replace('_', '-').equals(key)).findFirst().orElse(key);
    out.add(Problem.warning(FieldPath.field(p, written), choice + " routes on the workers' KV events, but spec.backend.kvEvents "
        + (spec.backend != null && spec.backend.kvEvents != null ? "is disabled" : "is not set")
        + ": the workers publish none, so the router sees no cache state and decides on load alone"));
  }

  /**
   * Warns at {@code spec.backend.kvEvents} when the workers publish KV events that no arm's router
   * kind can route on: the publishing costs the engines a little and measures nothing.
   */
  static void requireReader(List<Problem> out, RouterComparisonSpec spec) {
    if (!published(spec) || spec.arms == null || spec.arms.isEmpty()
        || spec.arms.stream().anyMatch(a -> a == null || a.frontend == null || !FrontendRules.all().containsKey(a.frontend.type)
            || FrontendRules.has(a.frontend.type, FrontendRules.Capability.KV_EVENTS))) {
      return;
    }
    out.add(Problem.warning("spec.backend.kvEvents", "the workers publish KV events, but no arm's router reads them ("
        + FrontendRules.typesWith(FrontendRules.Capability.KV_EVENTS) + " can): disable them, or add an arm that routes on them"));
  }
}
