package dev.srt.operator.plan;

import java.util.List;

/**
 * A readiness gate: every check must pass, in order, before the next gate starts. {@code target}
 * names the process the checks are about (for events and status).
 */
public record Gate(String name, List<Check> checks) {
  /** A probe about one process ({@code worker-0}, {@code router}). */
  public record Check(String target, Role role, Probe probe) {}
}
