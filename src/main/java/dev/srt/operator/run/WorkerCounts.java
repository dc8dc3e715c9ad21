package dev.srt.operator.run;

import dev.srt.operator.api.EndpointStatus;
import dev.srt.operator.api.RoleCount;
import dev.srt.operator.api.WorkerCount;
import java.util.List;

/** The ready/total worker figures of an arm's status, with per-role figures in a prefill/decode topology. */
final class WorkerCounts {
  private WorkerCounts() {}

  /** The counts of {@code endpoints}, out of {@code total} workers. */
  static WorkerCount of(List<EndpointStatus> endpoints, int total) {
    WorkerCount c = new WorkerCount((int) endpoints.stream().filter(e -> e.ready).count(), total);
    if (endpoints.stream().anyMatch(e -> e.role != null)) {
      c.prefill = role(endpoints, "prefill");
      c.decode = role(endpoints, "decode");
    }
    return c;
  }

  private static RoleCount role(List<EndpointStatus> endpoints, String role) {
    List<EndpointStatus> of = endpoints.stream().filter(e -> role.equals(e.role)).toList();
    return new RoleCount((int) of.stream().filter(e -> e.ready).count(), of.size());
  }
}
