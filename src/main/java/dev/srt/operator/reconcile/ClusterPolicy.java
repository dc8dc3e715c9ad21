package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.SshSpec;
import dev.srt.operator.config.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the operator lets a GpuCluster or a RouterComparison make it run, beyond what their schema
 * allows. The CLI has no such policy: whoever runs it already is the user the scripts run as. The
 * operator is shared, so a namespace's author must not reach its pod or another team's host account
 * with more than they declared.
 *
 * @param allowLocalTransport {@code --allow-local-transport}: a {@code transport: local} cluster
 *     runs scripts inside the operator's pod, whose ServiceAccount reads Secrets; off by default
 * @param preparer how an accepted cluster is prepared before it is planned on (the emulated host)
 */
public record ClusterPolicy(boolean allowLocalTransport, ClusterPreparer preparer) {

  public ClusterPolicy(boolean allowLocalTransport) {
    this(allowLocalTransport, ClusterPreparer.NONE);
  }

  /** Why the operator will not use {@code cluster} at all, if it will not. */
  public Optional<Refusal> refusal(GpuCluster cluster) {
    if (cluster.getSpec() != null && cluster.getSpec().isLocal() && !allowLocalTransport) {
      return Optional.of(new Refusal(ConditionReason.LocalTransportNotAllowed, "spec.transport: local would run scripts inside the "
          + "operator's own pod; the operator was not started with --allow-local-transport (use transport: ssh)"));
    }
    SshSpec ssh = cluster.getSpec() == null || cluster.getSpec().isLocal() ? null : cluster.getSpec().ssh;
    if (ssh != null && ssh.privateKeySecretRef == null) {
      return Optional.of(new Refusal(ConditionReason.SshSecretRequired, "spec.ssh.privateKeySecretRef: the operator reads the SSH key "
          + "from a Secret (privateKeyFile and the ssh-agent are for the CLI)"));
    }
    if (ssh != null && ssh.knownHostsSecretRef == null && !Boolean.TRUE.equals(ssh.insecureSkipHostKeyVerification)) {
      return Optional.of(new Refusal(ConditionReason.SshSecretRequired, "spec.ssh.knownHostsSecretRef: the operator reads known_hosts "
          + "from a Secret (knownHostsFile and ~/.ssh/known_hosts are for the CLI)"));
    }
    return Optional.empty();
  }

  /** Errors, with field paths of the comparison, for what {@code cluster} does not allow it to run. */
  public List<Problem> problems(RouterComparison rc, GpuCluster cluster) {
    List<Problem> out = new ArrayList<>();
    if (rc.getSpec() != null && rc.getSpec().workload != null && "custom".equals(rc.getSpec().workload.tool)
        && cluster != null && cluster.getSpec() != null && !Boolean.TRUE.equals(cluster.getSpec().allowCustomWorkloads)) {
      out.add(Problem.error("spec.workload.tool", "custom runs its command on the host as the cluster's SSH user; GpuCluster "
          + cluster.getMetadata().getName() + " does not allow custom workloads (its spec.allowCustomWorkloads is not true)"));
    }
    return out;
  }

  /** A CamelCase reason and a message for status and events. */
  public record Refusal(ConditionReason reason, String message) {}
}
