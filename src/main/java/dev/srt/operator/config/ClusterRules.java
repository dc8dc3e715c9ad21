package dev.srt.operator.config;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import java.util.ArrayList;
import java.util.List;

/** The rules of a GpuCluster, all problems at once, each with its field path. */
final class ClusterRules {
  private ClusterRules() {}

  /** Rules of a cluster. */
  static List<Problem> check(GpuCluster cluster) {
    List<Problem> out = new ArrayList<>();
    if (cluster.getMetadata() == null || Rules.blank(cluster.getMetadata().getName())) {
      out.add(Problem.error("metadata.name", "is required"));
    }
    GpuClusterSpec s = cluster.getSpec();
    if (s == null) {
      out.add(Problem.error("spec", "is required"));
      return out;
    }
    out.addAll(BoundsRules.check(s));
    // a value outside the set is OneOfRules' to report
    if (s.mode == null) {
      out.add(Problem.error("spec.mode", "is required: slurm or direct"));
    }
    String transport = s.transport == null ? "ssh" : s.transport;
    if ("ssh".equals(transport) && s.ssh == null) {
      out.add(Problem.error("spec.ssh", "is required with transport: ssh"));
    }
    if (s.ssh != null) {
      // Checked whenever present, as the CRD's CEL rules on the ssh block do.
      SshRules.check(out, s.ssh);
    }
    Rules.requireAbsolute(out, "spec.workDir", s.workDir, true);
    Rules.tomlSafe(out, "spec.workDir", s.workDir);
    Rules.positive(out, "spec.gpusPerNode", s.gpusPerNode);
    if (s.python != null && (s.python.isBlank() || s.python.contains("="))) {
      out.add(Problem.error("spec.python", "must be an interpreter name or path (without '=')"));
    }
    Rules.duration(out, "spec.pollInterval", s.pollInterval, Durations.MIN_POLL);
    Rules.env(out, "spec.env", s.env);
    SecretEnvRules.cluster(out, s);
    if (s.path != null) {
      for (int i = 0; i < s.path.size(); i++) {
        Rules.requireAbsolute(out, "spec.path[" + i + "]", s.path.get(i), true);
        if (s.path.get(i) != null && s.path.get(i).contains(":")) {
          out.add(Problem.error("spec.path[" + i + "]", "must not contain ':'"));
        }
      }
    }
    if (s.slurm != null) {
      if (s.mode() != Mode.SLURM) {
        out.add(Problem.error("spec.slurm", "slurm settings are only allowed with mode: slurm"));
      }
      if (s.slurm.timeLimit != null && !Rules.SLURM_TIME.matcher(s.slurm.timeLimit).matches()) {
        out.add(Problem.error("spec.slurm.timeLimit", "must be a Slurm time such as 02:00:00, 90 or 1-00:00:00"));
      }
      Rules.directives(out, "spec.slurm.sbatchDirectives", s.slurm.sbatchDirectives);
      Rules.directives(out, "spec.slurm.srunOptions", s.slurm.srunOptions);
      SlurmOptionRules.check(out, s.slurm);
      Rules.singleLine(out, "spec.slurm.partition", s.slurm.partition);
      Rules.singleLine(out, "spec.slurm.account", s.slurm.account);
    }
    if (s.container != null && s.container.runtime != null) {
      String rt = s.container.runtime;
      if ("pyxis".equals(rt) && s.mode() != Mode.SLURM) {
        out.add(Problem.error("spec.container.runtime", "pyxis needs mode: slurm"));
      } else if ("docker".equals(rt) && s.mode() != Mode.DIRECT) {
        out.add(Problem.error("spec.container.runtime", "docker needs mode: direct"));
      }
      if (!"none".equals(rt) && Rules.blank(s.container.image)) {
        out.add(Problem.error("spec.container.image", "a container runtime needs image"));
      }
    }
    InfraRules.cluster(out, s.infra);
    out.addAll(ShellSafetyRules.check(cluster));
    return out;
  }
}
