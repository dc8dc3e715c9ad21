package dev.srt.operator.config;

import dev.srt.operator.api.FrontendSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The rules of one router kind ({@code frontend.type}): its flags, the flags it manages, what it
 * can do ({@link Capability}), the program that runs it, and what it needs of the shared spec. Each router kind implements them next to how it is planned
 * ({@code plan/frontends/*Frontend}), registered as a service
 * ({@code META-INF/services/dev.srt.operator.config.FrontendRules}), so that a router's rules live in
 * its class while the validator stays below the planner.
 */
public interface FrontendRules {
  /** The {@code frontend.type} value, e.g. {@code sgl-router}. */
  String type();

  /**
   * What a router kind does beyond routing an aggregate pool of SGLang workers. The shared rules
   * check each arm against its kind's set, so a field that needs one is refused, at its path, on
   * a kind without it, and the messages name the kinds that have it.
   */
  enum Capability {
    /** Routes a disaggregated topology (prefill and decode workers). */
    PREFILL_DECODE,
    /** Loads an external worker-selection policy catalog ({@code arms[].dynamo.policyCatalog}). */
    POLICY_CATALOG,
    /** Couples each engine to a sidecar that registers it ({@code arms[].dynamo.sidecar}). */
    SIDECARS,
    /** Can route on the workers' KV events ({@code spec.backend.kvEvents}). */
    KV_EVENTS,
    /** Its router is a binary the arm names ({@code frontend.binary}) or builds ({@code frontend.source}). */
    ROUTER_BUILD
  }

  /** How a kind's router is started on the host: a program on PATH, or {@code python3 -m <name>}. */
  record RouterProgram(String name, boolean pythonModule) {
    public static RouterProgram binary(String name) {
      return new RouterProgram(name, false);
    }

    public static RouterProgram module(String name) {
      return new RouterProgram(name, true);
    }

    @Override
    public String toString() {
      return pythonModule ? "python3 -m " + name : name;
    }
  }

  /**
   * The flags srt-operator sets on this kind's router itself: an arm's {@code frontend.args} may
   * not set them, by name, alias or abbreviation.
   */
  Set<String> managedArgs();

  /**
   * The name of its router's flag list ({@link FlagVocabulary}: a file under
   * {@code config/flags/}), against which {@code frontend.args} is checked.
   */
  String flagList();

  /** How messages name its router, e.g. "sgl-router" or "the Dynamo frontend". */
  String routerName();

  /** What this kind can do ({@link Capability}); none: it routes an aggregate pool only. */
  Set<Capability> capabilities();

  /**
   * The program that runs its router. The emulated host installs one of this name for each
   * registered kind, which reaches {@code srt-operator emulate router <type>}.
   */
  RouterProgram routerProgram();

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

  /** Whether kind {@code type} has {@code c}; false for an unknown or missing type. */
  static boolean has(String type, Capability c) {
    FrontendRules kind = type == null ? null : all().get(type);
    return kind != null && kind.capabilities().contains(c);
  }

  /** The kinds that have {@code c}, in registry order. */
  static List<String> kindsWith(Capability c) {
    return all().values().stream().filter(k -> k.capabilities().contains(c)).map(FrontendRules::type).toList();
  }

  /** "frontend.type: a" or "frontend.type: a or b": the kinds that have {@code c}, for a message. */
  static String typesWith(Capability c) {
    return "frontend.type: " + oneOf(kindsWith(c));
  }

  private static String oneOf(List<String> types) {
    return types.isEmpty() ? "(none)" : types.size() == 1 ? types.get(0)
        : String.join(", ", types.subList(0, types.size() - 1)) + " or " + types.get(types.size() - 1);
  }

  /** The rules every frontend block gets, then its kind's. */
  static void checkArm(List<Problem> out, String p, FrontendSpec f, RouterComparisonSpec spec, boolean disaggregated) {
    String kinds = oneOf(List.copyOf(all().keySet()));
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
    FlagVocabulary.check(out, kind.flagList(), p + ".args", f.args, kind.managedArgs(), "for " + kind.routerName());
    Set<Capability> can = kind.capabilities();
    if (disaggregated && !can.contains(Capability.PREFILL_DECODE)) {
      out.add(Problem.error(p + ".type", "frontend.type: " + f.type + " routes an aggregate worker pool only; "
          + typesWith(Capability.PREFILL_DECODE) + " routes prefill and decode workers (remove the prefill/decode resources)"));
    }
    if ((f.binary != null || f.source != null) && !can.contains(Capability.ROUTER_BUILD)) {
      out.add(Problem.error(p + (f.binary != null ? ".binary" : ".source"), "only for " + typesWith(Capability.ROUTER_BUILD)
          + "; frontend.type: " + f.type + " runs " + kind.routerProgram() + " on the host"));
    }
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
