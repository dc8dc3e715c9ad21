package dev.srt.operator.plan;

import java.util.ArrayList;
import java.util.List;

/** Readiness gates every arm shares. */
public final class Gates {
  public static final String WORKERS_HEALTH = "workers-health";
  public static final String ROUTER_READY = "router-ready";
  public static final String CANARY = "canary";

  private Gates() {}

  /**
   * Every worker's own /health: routers report ready after the first worker registers, so the
   * barrier that means "the whole topology serves" has to be on the workers.
   */
  public static Gate workersHealth(List<ProcessSpec> workers) {
    List<Gate.Check> checks = new ArrayList<>();
    for (ProcessSpec p : workers) {
      if (p.probe() != null && (p.role() == Role.WORKER || p.role() == Role.ENGINE)) {
        checks.add(new Gate.Check(p.group() != null ? p.group() : p.name(), Role.WORKER, p.probe()));
      }
    }
    return new Gate(WORKERS_HEALTH, checks);
  }

  /** How many workers of {@code role} the topology has. */
  public static int count(Topology t, WorkerRole role) {
    return (int) t.workers().stream().filter(w -> w.role() == role).count();
  }

  /** One real chat request through the router before the benchmark. */
  public static Gate canary(ArmContext ctx) {
    return new Gate(CANARY, List.of(new Gate.Check("router", Role.ROUTER,
        Probe.chat(ctx.routerUrl() + "/v1/chat/completions", ctx.servedModelName()))));
  }
}
