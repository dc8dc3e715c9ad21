package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * SGLang's {@code GET /get_load}: one entry per DP rank, {@code {"dp_rank","num_reqs",
 * "num_waiting_reqs","num_tokens"}} ({@code GetLoadReqOutput} in sgl-project/sglang
 * {@code python/sglang/srt/managers/io_struct.py}). The SGLang Model Gateway (sglang-router 0.3.2)
 * asks every worker for it behind its own {@code GET /get_loads} and, with
 * {@code --policy power_of_two}, periodically (it logs {@code Starting load monitoring with
 * interval: 30s} at its defaults); it sums {@code num_tokens} over the ranks as the
 * worker's load ({@code WorkerManager::get_worker_load}, sgl-model-gateway
 * {@code src/core/worker_manager.rs}) and reads a worker that does not answer as load -1.
 */
final class EngineLoad {
  private EngineLoad() {}

  /**
   * The single rank's load: requests running or queued, queued ones, and the KV tokens the
   * requests in flight hold (SGLang counts the pool's tokens not free and not evictable cache).
   */
  static ArrayNode json(int running, int queued, long tokensInFlight) {
    ArrayNode ranks = Json.array();
    ranks.addObject().put("dp_rank", 0).put("num_reqs", running + queued).put("num_waiting_reqs", queued)
        .put("num_tokens", tokensInFlight);
    return ranks;
  }
}
