package dev.srt.operator.plan.frontends;

import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.config.Problem;
import dev.srt.operator.plan.ArmContext;
import dev.srt.operator.plan.Endpoint;
import dev.srt.operator.plan.Probe;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.SglangEngine;
import dev.srt.operator.plan.WorkerSlot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A static pool of native SGLang workers ({@code sglang.launch_server}) that a router reaches by
 * its {@code --worker-urls}: what sgl-router and the SGLang Model Gateway share. Each worker
 * publishes its KV events as {@code spec.backend.kvEvents} says, whether its router reads them or
 * not, so that every arm of a comparison runs the same engines.
 */
final class StaticWorkerPool {
  private StaticWorkerPool() {}

  /** One engine per worker slot (and its followers on further nodes), each probed on {@code /health}. */
  static List<ProcessSpec> workers(ArmContext ctx) {
    List<ProcessSpec> out = new ArrayList<>();
    for (WorkerSlot w : ctx.topology().workers()) {
      Endpoint server = ctx.workerEndpoint(w);
      out.add(new ProcessSpec(w.name(), Role.WORKER, w.node(),
          SglangEngine.argv(ctx, w, SglangEngine.MODULE, false), SglangEngine.env(ctx, w),
          ports(w), w.gpus(), SglangEngine.logOf(w.name()),
          Probe.httpStatus(server.healthUrl(), 200), null, null).serving(server));
      out.addAll(SglangEngine.followers(ctx, w, w.name(), Role.WORKER, SglangEngine.MODULE, SglangEngine.env(ctx, w)));
    }
    return out;
  }

  /** {@code --worker-urls} and every worker's URL, in topology order. */
  static List<String> workerUrlsFlag(ArmContext ctx) {
    List<String> argv = new ArrayList<>();
    argv.add("--worker-urls");
    ctx.topology().workers().forEach(w -> argv.add(ctx.workerUrl(w)));
    return argv;
  }

  /**
   * What a router of {@code type} over this pool needs of the spec: SGLang workers, no
   * prefill/decode split ({@code whyAggregated} says why not).
   */
  static void requireSglang(List<Problem> out, String p, String type, RouterComparisonSpec spec) {
    String backendType = spec.backend == null || spec.backend.type == null ? "sglang" : spec.backend.type;
    if (!"sglang".equals(backendType)) {
      out.add(Problem.error(p + ".type", "frontend.type: " + type + " needs backend.type: sglang"));
    }
  }

  private static Map<String, Integer> ports(WorkerSlot w) {
    Map<String, Integer> ports = new LinkedHashMap<>();
    ports.put("http", w.ports().http());
    ports.put("kvEvents", w.ports().kvEvents());
    ports.put("nccl", w.ports().nccl());
    return ports;
  }
}
