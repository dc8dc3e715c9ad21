package dev.srt.operator.plan.frontends;

import dev.srt.operator.config.FrontendRules;

import dev.srt.operator.plan.ArmContext;
import dev.srt.operator.plan.BuildStage;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.plan.ProcessSpec;
import java.util.List;
import java.util.Map;

/**
 * One router kind. Adding a router (Model Gateway, vLLM router, llm-d scheduler) is one new
 * implementation registered in {@link Frontends}, with no change to the renderers. Its validation
 * rules live in {@link dev.srt.operator.config.Validator} so that the operator can report them
 * before anything is planned.
 */
public interface Frontend extends FrontendRules {
  /** The {@code frontend.type} value. */
  @Override
  String type();

  /** Stages that run before any process: builds of the router, installs of its runtime. */
  List<BuildStage> builds(ArmContext ctx);

  /**
   * Services the arm's other processes need before they start (Dynamo's etcd and NATS), of role
   * infra on node 0, each with its readiness probe. The planner starts them first, gates on them
   * ({@link dev.srt.operator.plan.Gates#infraReady}) and starts everything else after that gate.
   */
  default List<ProcessSpec> infra(ArmContext ctx) {
    return List.of();
  }

  /** Programs the run needs (the infra executables), checked before anything is built. */
  default List<dev.srt.operator.plan.RunPlan.Preflight> preflight(ArmContext ctx) {
    return List.of();
  }

  /** The worker processes this router expects (engines, and sidecars where it needs them). */
  List<ProcessSpec> workers(ArmContext ctx);

  /** The router process. */
  ProcessSpec router(ArmContext ctx);

  /**
   * Readiness gates in order: the workers' (usually {@link dev.srt.operator.plan.Gates#workersHealth}
   * over {@code workers}), then the router's. The planner adds the canary.
   */
  List<Gate> readiness(ArmContext ctx, List<ProcessSpec> workers);

  /** Derived values worth showing in the plan (cache keys, health paths, binaries). */
  Map<String, Object> facts(ArmContext ctx);

  /**
   * What identifies this arm's router at run time (its binary, wheels, packages, policy catalog):
   * the routing facts a run records beside the held-constant ones ({@code facts.json}).
   */
  default dev.srt.operator.plan.FactCapture.Router routerFacts(ArmContext ctx) {
    return dev.srt.operator.plan.FactCapture.Router.kind(type());
  }
}
