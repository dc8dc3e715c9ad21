package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A readiness gate: every check must pass, in order, before the next gate starts. {@code target}
 * names the process the checks are about (for events and status). {@code timeoutSeconds} is the
 * gate's own budget when it has one (etcd and NATS get the seed's 300 s), else the run's health
 * timeout.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Gate(String name, List<Check> checks, Long timeoutSeconds) {
  /** A gate within the run's health timeout. */
  public Gate(String name, List<Check> checks) {
    this(name, checks, null);
  }

  /** A probe about one process ({@code worker-0}, {@code router}). */
  public record Check(String target, Role role, Probe probe) {}
}
