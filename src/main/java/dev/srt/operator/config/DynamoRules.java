package dev.srt.operator.config;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.PolicyCatalogSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.List;

/**
 * The rules of Dynamo: the one install every Dynamo arm shares ({@code spec.dynamo}), and each
 * arm's own use of it ({@code spec.arms[i].dynamo}: the sidecar and the policy catalog).
 */
final class DynamoRules {
  private DynamoRules() {}

  /** {@code spec.dynamo}. */
  static void check(List<Problem> out, DynamoSpec d, RouterComparisonSpec spec) {
    if (d == null) {
      return;
    }
    int sources = (d.version != null ? 1 : 0) + (d.hash != null ? 1 : 0) + (d.wheel != null ? 1 : 0);
    if (!d.installOrDefault()) {
      if (sources != 0) {
        out.add(Problem.error("spec.dynamo.install", "install: false uses the Dynamo already on the host; remove version, hash and wheel"));
      }
    } else if (sources != 1) {
      out.add(Problem.error("spec.dynamo", sources == 0
          ? "set one Dynamo install source: version, hash or wheel"
          : "set exactly one Dynamo install source: version, hash or wheel (found " + sources + ")"));
    }
    if (d.hash != null && !Rules.COMMIT.matcher(d.hash).matches()) {
      out.add(Problem.error("spec.dynamo.hash", "must be a full 40-hex commit, not " + Echo.value(d.hash)));
    }
    Rules.requireAbsolute(out, "spec.dynamo.wheel", d.wheel, false);
    Rules.duration(out, "spec.dynamo.sidecarStartupTimeout", d.sidecarStartupTimeout);
    if (d.sidecarPort != null) {
      long workers = spec.resources == null ? 1 : WorkerFit.totalWorkers(spec.resources);
      if (d.sidecarPort < 1 || d.sidecarPort + workers - 1 > 65535) {
        out.add(Problem.error("spec.dynamo.sidecarPort", "sidecar gRPC ports (sidecarPort + worker index) must be between 1 and 65535"));
      }
    }
  }

  /** {@code spec.arms[i].dynamo} ({@code p} is the arm's path) of an arm of frontend {@code type}. */
  static void arm(List<Problem> out, String p, ArmSpec arm, String type, RouterComparisonSpec spec, boolean disaggregated) {
    if (arm.dynamo != null) {
      if (arm.dynamo.sidecar != null && !FrontendRules.has(type, FrontendRules.Capability.SIDECARS)) {
        out.add(Problem.error(p + ".dynamo.sidecar", "requires " + FrontendRules.typesWith(FrontendRules.Capability.SIDECARS)));
      }
      if (arm.dynamo.sidecar != null) {
        Rules.flagList(out, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args);
        FlagVocabulary.checkArgs(out, FlagVocabulary.DYNAMO_SIDECAR, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args,
            Validator.MANAGED_DYNAMO_SIDECAR_ARGS, "for the Dynamo sidecar");
        if (disaggregated && arm.dynamo.sidecarEnabled()) {
          disaggregatedSidecar(out, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args);
        }
      }
      if (arm.dynamo.policyCatalog != null) {
        policyCatalog(out, p + ".dynamo.policyCatalog", arm.dynamo.policyCatalog, type, spec.dynamo);
      }
    }
  }

  private static void policyCatalog(List<Problem> out, String p, PolicyCatalogSpec c, String frontendType, DynamoSpec dynamo) {
    if (!FrontendRules.has(frontendType, FrontendRules.Capability.POLICY_CATALOG)) {
      out.add(Problem.error(p, "requires " + FrontendRules.typesWith(FrontendRules.Capability.POLICY_CATALOG)));
    }
    if (dynamo == null || dynamo.hash == null) {
      out.add(Problem.error(p, "requires a pinned source build: set spec.dynamo.hash"));
    }
    if ((c.git == null) == (c.path == null)) {
      out.add(Problem.error(p, "set exactly one of git or path"));
    }
    if (c.git != null && c.rev == null) {
      out.add(Problem.error(p + ".rev", "git needs an immutable rev (a 40-hex commit)"));
    }
    if (c.rev != null && !Rules.COMMIT.matcher(c.rev).matches()) {
      out.add(Problem.error(p + ".rev", "must be an immutable rev: a full 40-hex commit, not " + Echo.value(c.rev)));
    }
    Rules.requireAbsolute(out, p + ".path", c.path, false);
    if (c.crateSubdir != null && (c.crateSubdir.startsWith("/") || c.crateSubdir.contains(".."))) {
      out.add(Problem.error(p + ".crateSubdir", "must be a relative path inside the repository"));
    }
    if (c.config != null && (c.config.startsWith("/") || c.config.contains(".."))) {
      out.add(Problem.error(p + ".config", "must be a relative path inside the crate directory"));
    }
    if (Rules.blank(c.packageName)) {
      out.add(Problem.error(p + ".package", "is required: the cargo package name of the catalog crate"));
    } else if (!Rules.CARGO_PACKAGE.matcher(c.packageName).matches()) {
      out.add(Problem.error(p + ".package", "is not a cargo package name (letters, digits, '-' and '_')"));
    }
    Rules.tomlSafe(out, p + ".path", c.path);
    Rules.tomlSafe(out, p + ".crateSubdir", c.crateSubdir);
  }

  /**
   * Sidecar flags that a prefill/decode topology decides, as Dynamo's SGLang sidecar handles it:
   * the role comes from the engine, the prefill bootstrap host from the node, and the component
   * from the role.
   */
  private static void disaggregatedSidecar(List<Problem> out, String p, List<String> args) {
    if (args == null) {
      return;
    }
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String name = a == null ? "" : a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      String why = switch (name) {
        case "--disaggregation-mode" -> "has no effect in Dynamo's SGLang sidecar, which takes each worker's role from its "
            + "engine; srt-operator sets the engines' --disaggregation-mode from spec.resources";
        case "--bootstrap-host" -> "is set by srt-operator on each prefill worker's sidecar: the address of its node, where "
            + "decode workers reach the prefill engine's bootstrap port";
        case "--component" -> "is ignored for prefill/decode workers: Dynamo's SGLang sidecar registers them under their "
            + "fixed role components, where the frontend finds the prefill workers";
        default -> null;
      };
      if (why != null) {
        out.add(Problem.error(p + "[" + i + "]", Echo.value(a) + " " + why));
      }
    }
  }
}
