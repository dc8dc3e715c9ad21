package dev.srt.operator.emulator;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Chooses the worker for one request from what a router knows: each candidate's in-flight
 * requests and blocks and how many leading blocks of the request it is believed to have cached.
 * Both emulated routers use these, so arm 1 ({@code --policy cache_aware}) and arm 3 (Dynamo with
 * the {@code sgl-router-cache-aware} catalog policy) run the very same decision rule.
 */
public interface RoutingPolicy {
  /** What a router knows about one eligible worker at decision time. */
  record Candidate(int activeRequests, long activeBlocks, int overlapBlocks) {}

  /** The chosen index into the candidates and a label for the decision metrics. */
  record Choice(int index, String decision) {}

  Choice choose(int requestBlocks, List<Candidate> candidates);

  /** Whether decisions depend on cached prefixes (routers then keep per-worker prefix views). */
  default boolean cacheAware() {
    return false;
  }

  /** Ties go round the candidates instead of piling on the first. */
  final class TieBreaker {
    private final AtomicLong turn = new AtomicLong();

    int pick(List<Integer> tied) {
      return tied.get(Math.floorMod(turn.getAndIncrement(), tied.size()));
    }
  }

  static RoutingPolicy roundRobin() {
    AtomicLong next = new AtomicLong();
    return (blocks, c) -> new Choice(Math.floorMod(next.getAndIncrement(), c.size()), "round_robin");
  }

  static RoutingPolicy random(long seed) {
    Random r = new Random(seed);
    return (blocks, c) -> {
      synchronized (r) {
        return new Choice(r.nextInt(c.size()), "random");
      }
    };
  }

  static RoutingPolicy leastLoaded() {
    TieBreaker ties = new TieBreaker();
    return (blocks, c) -> new Choice(leastLoaded(c, allIndices(c), ties), "least_loaded");
  }

  /** Index of the candidate with the fewest active requests among {@code among}. */
  static int leastLoaded(List<Candidate> c, List<Integer> among, TieBreaker ties) {
    int min = Integer.MAX_VALUE;
    for (int i : among) {
      min = Math.min(min, c.get(i).activeRequests());
    }
    final int best = min;
    return ties.pick(among.stream().filter(i -> c.get(i).activeRequests() == best).toList());
  }

  static List<Integer> allIndices(List<Candidate> c) {
    return java.util.stream.IntStream.range(0, c.size()).boxed().toList();
  }

  /**
   * The experimental sgl-router's {@code cache_aware_zmq} rule, also Dynamo's
   * {@code dynamo-two-tier-cost-fn} and the router-sandbox {@code sgl-router-cache-aware} policy:
   * <ol>
   *   <li>if the active-request spread exceeds {@code balanceAbs} and the busiest worker has more
   *       than {@code balanceRel} times the idlest one's load, the least-loaded worker;
   *   <li>else, if the best prefix overlap covers strictly more than {@code cacheThreshold} of the
   *       request's blocks, the least-loaded worker among those with that overlap;
   *   <li>else the least-loaded worker.
   * </ol>
   */
  record TwoTierCacheAware(double cacheThreshold, int balanceAbs, double balanceRel, TieBreaker ties)
      implements RoutingPolicy {
    public static TwoTierCacheAware sglRouterDefaults() {
      return new TwoTierCacheAware(0.5, 32, 1.1, new TieBreaker());
    }

    @Override
    public Choice choose(int requestBlocks, List<Candidate> c) {
      int max = c.stream().mapToInt(Candidate::activeRequests).max().orElse(0);
      int min = c.stream().mapToInt(Candidate::activeRequests).min().orElse(0);
      if (max - min > balanceAbs && max > balanceRel * min) {
        return new Choice(leastLoaded(c, allIndices(c), ties), "cache_miss");
      }
      int bestOverlap = c.stream().mapToInt(Candidate::overlapBlocks).max().orElse(0);
      if (requestBlocks > 0 && bestOverlap > cacheThreshold * requestBlocks) {
        List<Integer> best = allIndices(c).stream().filter(i -> c.get(i).overlapBlocks() == bestOverlap).toList();
        return new Choice(leastLoaded(c, best, ties), "cache_hit");
      }
      return new Choice(leastLoaded(c, allIndices(c), ties), "cache_miss");
    }

    @Override
    public boolean cacheAware() {
      return true;
    }
  }

  /**
   * Dynamo's default KV cost: {@code overlapWeight * prefill_blocks + decode_blocks}, where
   * prefill blocks are the request's blocks the worker has not cached and decode blocks are the
   * blocks of its in-flight requests; the lowest cost wins, ties go to the less busy worker.
   */
  record KvCost(double overlapWeight, TieBreaker ties) implements RoutingPolicy {
    @Override
    public Choice choose(int requestBlocks, List<Candidate> c) {
      double best = Double.MAX_VALUE;
      for (Candidate w : c) {
        best = Math.min(best, cost(requestBlocks, w));
      }
      final double min = best;
      List<Integer> cheapest = allIndices(c).stream().filter(i -> cost(requestBlocks, c.get(i)) == min).toList();
      return new Choice(leastLoaded(c, cheapest, ties), "kv");
    }

    double cost(int requestBlocks, Candidate w) {
      return overlapWeight * (requestBlocks - w.overlapBlocks()) + w.activeBlocks();
    }

    @Override
    public boolean cacheAware() {
      return true;
    }
  }
}
