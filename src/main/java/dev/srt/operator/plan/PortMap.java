package dev.srt.operator.plan;

/**
 * The deterministic ports of one worker (srt-slurm's port table): HTTP {@code 6100 + 32k} for the
 * k-th worker on its node; KV events {@code 5200 + i}, Dynamo system {@code 7500 + i}, NCCL {@code
 * 17500 + i} and sidecar gRPC {@code sidecarBase + i} for the i-th worker of the run.
 */
public record PortMap(int http, int kvEvents, int system, int nccl, int grpc) {
  public static final int HTTP_BASE = 6100;
  public static final int HTTP_STRIDE = 32;
  public static final int KV_EVENTS_BASE = 5200;
  public static final int SYSTEM_BASE = 7500;
  public static final int NCCL_BASE = 17500;
  public static final int SIDECAR_GRPC_BASE = 50051;
  public static final int ROUTER = 8000;
  /** A multi-node worker's torch distributed rendezvous, on its leader node (--dist-init-addr). */
  public static final int DIST_INIT = 8300;

  public static PortMap forWorker(int indexInRun, int indexOnNode, int sidecarBase) {
    return new PortMap(
        HTTP_BASE + HTTP_STRIDE * indexOnNode,
        KV_EVENTS_BASE + indexInRun,
        SYSTEM_BASE + indexInRun,
        NCCL_BASE + indexInRun,
        sidecarBase + indexInRun);
  }
}
