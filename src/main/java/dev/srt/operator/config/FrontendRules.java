package dev.srt.operator.config;

import dev.srt.operator.api.FrontendSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.LinkedHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The rules of one router kind ({@code frontend.type}): its flags, the flags it manages, what it
 * needs of the shared spec. Each router kind implements them next to how it is planned
 * ({@code plan/frontends/*Frontend}), registered as a service
 * ({@code META-INF/services/dev.srt.operator.config.FrontendRules}), so that adding a router touches
 * one class while the validator stays below the planner.
 */
public interface FrontendRules {
  /** The {@code frontend.type} value, e.g. {@code sgl-router}. */
  String type();

  /**
   * Adds the problems of an arm's {@code frontend} block ({@code p} is its path, e.g.
   * {@code spec.arms[0].frontend}) given the shared spec; {@code disaggregated} when the topology
   * has prefill and decode workers.
   */
  void check(List<Problem> out, String p, FrontendSpec f, RouterComparisonSpec spec, boolean disaggregated);

  /**
   * The {@code frontend.type} of srtctl recipes that {@code srt-operator import} turns into this
   * kind; null when srtctl has no such frontend.
   */
  default String srtctlType() {
    return type();
  }

  /**
   * A few words on what srtctl calls this kind, for the importer's messages (empty when its
   * {@link #srtctlType} is this kind's own name).
   */
  default String srtctlDescription() {
    return "";
  }

  /**
   * The ports the router of this kind binds on the first node besides the router port (a separate
   * metrics listener): part of the {@link PortTable} that every range of a run must avoid.
   */
  default List<PortTable.Block> routerPorts() {
    return List.of();
  }

  /** Every router kind, by type. */
  static Map<String, FrontendRules> all() {
    return Registry.ALL;
  }

  /** The rules every frontend block gets, then its kind's. */
  static void checkArm(List<Problem> out, String p, FrontendSpec f, RouterComparisonSpec spec, boolean disaggregated) {
    List<String> types = List.copyOf(all().keySet());
    String kinds = types.size() == 1 ? types.get(0)
        : String.join(", ", types.subList(0, types.size() - 1)) + " or " + types.get(types.size() - 1);
    if (f == null) {
      out.add(Problem.error(p, "is required"));
      return;
    }
    if (Rules.blank(f.type)) {
      out.add(Problem.error(p + ".type", "is required: " + kinds));
      return;
    }
    FrontendRules kind = all().get(f.type);
    if (kind == null) {
      return; // not one of api.FrontendType: OneOfRules says so, in the words of the CRD's enum
    }
    Rules.flags(out, p + ".args", f.args);
    Rules.env(out, p + ".env", f.env);
    kind.check(out, p, f, spec, disaggregated);
  }

  /** Loaded once; in the order the services file lists them. */
  final class Registry {
    static final Map<String, FrontendRules> ALL = ServiceLoader.load(FrontendRules.class, FrontendRules.class.getClassLoader())
        .stream().map(ServiceLoader.Provider::get)
        .collect(Collectors.toMap(FrontendRules::type, Function.identity(), (a, b) -> a, LinkedHashMap::new));

    private Registry() {}
  }
}
