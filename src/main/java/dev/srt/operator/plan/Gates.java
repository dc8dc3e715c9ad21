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
  public static Gate workersHealth(ArmContext ctx) {
    List<Gate.Check> checks = new ArrayList<>();
    for (WorkerSlot w : ctx.topology().workers()) {
      checks.add(new Gate.Check(w.name(), Role.WORKER, Probe.httpStatus(ctx.workerUrl(w) + "/health", 200)));
    }
    return new Gate(WORKERS_HEALTH, checks);
  }

  /** One real chat request through the router before the benchmark. */
  public static Gate canary(ArmContext ctx) {
    return new Gate(CANARY, List.of(new Gate.Check("router", Role.ROUTER,
        Probe.chat(ctx.routerUrl() + "/v1/chat/completions", ctx.servedModelName()))));
  }
}
