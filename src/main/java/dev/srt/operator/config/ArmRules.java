package dev.srt.operator.config;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules of {@code spec.arms}: their names, each arm's router ({@link FrontendRules}) and Dynamo
 * use ({@link DynamoRules}), and what a direct host needs of a router.
 */
final class ArmRules {
  private ArmRules() {}

  static void check(List<Problem> out, RouterComparisonSpec spec, boolean disaggregated) {
    if (spec.arms == null || spec.arms.isEmpty()) {
      out.add(Problem.error("spec.arms", "needs at least one arm"));
      return;
    }
    if (spec.arms.size() > 8) {
      out.add(Problem.error("spec.arms", "at most 8 arms (they run one after another on the same GPUs); found " + spec.arms.size()));
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < spec.arms.size(); i++) {
      String p = "spec.arms[" + i + "]";
      ArmSpec arm = spec.arms.get(i);
      if (arm == null) {
        out.add(Problem.error(p, "is empty"));
        continue;
      }
      if (Rules.blank(arm.name)) {
        out.add(Problem.error(p + ".name", "is required"));
      } else if (!Rules.DNS_LABEL.matcher(arm.name).matches() || arm.name.length() > 63) {
        out.add(Problem.error(p + ".name", "must be a DNS label: lower-case letters, digits and '-', at most 63 characters"));
      } else if (!seen.add(arm.name)) {
        out.add(Problem.error(p + ".name", "duplicate arm name " + Echo.value(arm.name)));
      }
      FrontendRules.checkArm(out, p + ".frontend", arm.frontend, spec, disaggregated);
      DynamoRules.arm(out, p, arm, arm.frontend == null ? null : arm.frontend.type, spec, disaggregated);
    }
    KvEventRules.requireReader(out, spec);
  }

  /**
   * On a direct host the router is built in the run from the source the workers run, never taken
   * prebuilt: an opaque binary's build (its SGLang revision, its Dynamo crates) is not part of what
   * the comparison declares, so two runs of one spec could compare different routers. Without
   * {@code source} (or {@code binary}) the run would start whatever {@code sgl-router} is first on
   * the host's PATH: as opaque, so refused alike.
   */
  static void directHostRouters(List<Problem> out, RouterComparisonSpec spec) {
    if (spec.arms == null) {
      return;
    }
    for (int i = 0; i < spec.arms.size(); i++) {
      ArmSpec arm = spec.arms.get(i);
      // A kind that takes no binary refuses one already (FrontendRules).
      if (arm == null || arm.frontend == null || !FrontendRules.has(arm.frontend.type, FrontendRules.Capability.ROUTER_BUILD)) {
        continue;
      }
      if (arm.frontend.binary != null) {
        out.add(Problem.error("spec.arms[" + i + "].frontend.binary", "a direct host builds the router from source in the run, "
            + "so that the comparison declares what it runs: drop frontend.binary and set frontend.source "
            + "(a prebuilt router is for mode: slurm only)"));
      } else if (arm.frontend.source == null) {
        out.add(Problem.error("spec.arms[" + i + "].frontend.source", "a direct host builds the router from source in the run, "
            + "so that the comparison declares what it runs: set frontend.source (without it the run would start whatever "
            + FrontendRules.all().get(arm.frontend.type).routerProgram() + " is on the host's PATH, an opaque router)"));
      }
    }
  }
}
