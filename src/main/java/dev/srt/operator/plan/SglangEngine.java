package dev.srt.operator.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.srt.operator.api.BackendSpec;
import dev.srt.operator.api.KvEventsSpec;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.Validator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The native SGLang server command shared by every arm ({@code python3 -m sglang.launch_server}),
 * so that the engine is the same process whichever router sits in front of it.
 */
public final class SglangEngine {
  public static final String MODULE = "sglang.launch_server";

  private SglangEngine() {}

  /** argv of worker {@code w}'s leader; {@code grpc} adds the native gRPC port a Dynamo sidecar talks to. */
  public static List<String> argv(ArmContext ctx, WorkerSlot w, String module, boolean grpc) {
    return argv(ctx, w, module, grpc, 0);
  }

  /**
   * argv of rank {@code rank} of worker {@code w}. Every rank of a multi-node worker runs the same
   * command plus --nnodes, --node-rank and the leader's --dist-init-addr; followers never get the
   * gRPC port (only the leader's engine has a sidecar).
   */
  public static List<String> argv(ArmContext ctx, WorkerSlot w, String module, boolean grpc, int rank) {
    Map<String, Object> args = args(ctx, w);
    List<String> argv = new ArrayList<>(List.of(ctx.python(), "-m", module,
        "--model-path", ctx.modelPath(),
        "--served-model-name", ctx.servedModelName(),
        "--host", "0.0.0.0",
        "--port", String.valueOf(w.ports().http()),
        "--nccl-port", String.valueOf(w.ports().nccl())));
    String kvEvents = kvEventsConfig(ctx, w);
    if (kvEvents != null) {
      argv.add("--kv-events-config");
      argv.add(kvEvents);
    }
    if (w.multiNode()) {
      argv.addAll(List.of("--nnodes", String.valueOf(w.nodeCount()), "--node-rank", String.valueOf(rank),
          "--dist-init-addr", ctx.nodeHost(w.node()) + ":" + PortMap.DIST_INIT));
    }
    if (grpc && rank == 0) {
      argv.add("--grpc-port");
      argv.add(String.valueOf(w.ports().grpc()));
      // Without it SGLang streams cumulative chunks, which the sidecar would treat as deltas.
      if (!Flags.has(args, "incremental-streaming-output")) {
        argv.add("--incremental-streaming-output");
      }
    }
    if (w.role() != null) {
      argv.addAll(disaggregation(w, module, args));
    }
    if (!Flags.has(args, "random-seed")) {
      // SGLang draws its own sampling seed when none is given: two arms would then sample differently.
      argv.addAll(List.of("--random-seed", randomSeed(ctx)));
    }
    argv.addAll(Flags.render(args, Validator.MANAGED_ENGINE_ARGS));
    return argv;
  }

  /**
   * The sampling seed every engine of the arm runs with: {@code backend.args.random-seed}, else the
   * workload's seed, so that the arms of a comparison (and its repetitions) sample alike.
   */
  public static String randomSeed(ArmContext ctx) {
    String given = Flags.get(ctx.spec().backend == null ? null : ctx.spec().backend.args, "random-seed");
    if (given != null) {
      return given;
    }
    var w = ctx.spec().workload;
    return String.valueOf(w == null || w.seed == null ? Workload.DEFAULT_SEED : w.seed);
  }

  /**
   * The flags of a prefill or decode engine, on every rank, as srt-slurm passes them: its mode, and
   * for a prefill engine the port of the bootstrap server through which decode engines fetch its
   * KV cache. The native server also skips its warm-up request, which in a P/D engine would wait
   * for a peer that only the router provides.
   */
  private static List<String> disaggregation(WorkerSlot w, String module, Map<String, Object> args) {
    List<String> out = new ArrayList<>(List.of("--disaggregation-mode", w.role().id()));
    if (w.ports().bootstrap() != null) {
      out.addAll(List.of("--disaggregation-bootstrap-port", String.valueOf(w.ports().bootstrap())));
    }
    if (MODULE.equals(module) && !Flags.has(args, "skip-server-warmup")) {
      out.add("--skip-server-warmup");
    }
    return out;
  }

  /**
   * The engine flags of worker {@code w}: backend.args, with a prefill or decode worker's
   * prefillArgs or decodeArgs over them (a role's key replaces the same flag however it is spelt).
   */
  public static Map<String, Object> args(ArmContext ctx, WorkerSlot w) {
    BackendSpec b = ctx.spec().backend;
    if (b == null) {
      return Map.of();
    }
    Map<String, Object> role = w.role() == WorkerRole.PREFILL ? b.prefillArgs : w.role() == WorkerRole.DECODE ? b.decodeArgs : null;
    if (role == null || role.isEmpty()) {
      return b.args == null ? Map.of() : b.args;
    }
    Map<String, Object> merged = new LinkedHashMap<>(b.args == null ? Map.of() : b.args);
    role.keySet().forEach(k -> merged.keySet().removeIf(m -> Flags.normalize(m).equals(Flags.normalize(k))));
    merged.putAll(role);
    return merged;
  }

  /** Environment of worker {@code w}: its GPUs (only for partial-node workers) and backend.env. */
  public static Map<String, String> env(ArmContext ctx, WorkerSlot w) {
    Map<String, String> env = new LinkedHashMap<>();
    if (ctx.topology().partialNode(w)) {
      env.put("CUDA_VISIBLE_DEVICES", String.join(",", w.gpus().stream().map(String::valueOf).toList()));
    }
    if (ctx.spec().backend != null && ctx.spec().backend.env != null) {
      env.putAll(new java.util.TreeMap<>(ctx.spec().backend.env));
    }
    return env;
  }

  /** The whole KV-event wiring: a ZMQ publisher per worker on {@code tcp://*:5200+i}. */
  static String kvEventsConfig(ArmContext ctx, WorkerSlot w) {
    KvEventsSpec kv = ctx.spec().backend == null ? null : ctx.spec().backend.kvEvents;
    if (kv == null || !kv.enabledOrDefault()) {
      return null;
    }
    Map<String, Object> cfg = new LinkedHashMap<>();
    cfg.put("publisher", kv.publisher == null ? "zmq" : kv.publisher);
    cfg.put("topic", kv.topic == null ? "kv-events" : kv.topic);
    cfg.put("endpoint", "tcp://*:" + w.ports().kvEvents());
    try {
      return Mappers.json().writeValueAsString(cfg);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The follower ranks of a multi-node worker ({@code base}-rank-1, ...): the same engine on each
   * further node. They serve no HTTP; the worker is probed through its leader, which turns healthy
   * only once every rank joined.
   */
  public static List<ProcessSpec> followers(ArmContext ctx, WorkerSlot w, String base, Role role, String module, Map<String, String> env) {
    List<ProcessSpec> out = new ArrayList<>();
    for (int rank = 1; rank < w.nodeCount(); rank++) {
      String name = base + "-rank-" + rank;
      out.add(new ProcessSpec(name, role, w.followerNodes().get(rank - 1), argv(ctx, w, module, false, rank), env,
          Map.of(), w.gpus(), logOf(name), null, null, null));
    }
    return out;
  }

  public static String logOf(String name) {
    return "logs/" + name + ".log";
  }
}
