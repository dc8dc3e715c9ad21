package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Picks a worker for each request with a {@link RoutingPolicy} and books the request on it. The
 * choice and the booking happen under one lock so that a burst of concurrent requests sees each
 * other's load, as the real routers' reservations do.
 */
public final class Dispatcher {
  private final RoutingPolicy policy;

  public Dispatcher(RoutingPolicy policy) {
    this.policy = policy;
  }

  /** A request on its way to {@code worker}; closing it ends the booking. */
  public record Routed(RoutedWorker worker, String decision, int requestBlocks, int overlapBlocks,
      RoutedWorker.Inflight inflight) implements AutoCloseable {
    @Override
    public void close() {
      inflight.close();
    }
  }

  public Routed route(List<RoutedWorker> workers, JsonNode messages) {
    List<String> tokens = policy.cacheAware() ? ChatPrompt.tokens(messages) : List.of();
    List<long[]> chains = new ArrayList<>(workers.size());
    int requestBlocks = 0;
    for (RoutedWorker w : workers) {
      long[] chain = w.chain(tokens);
      chains.add(chain);
      requestBlocks = Math.max(requestBlocks, chain.length);
    }
    synchronized (this) {
      List<RoutingPolicy.Candidate> candidates = new ArrayList<>(workers.size());
      for (int i = 0; i < workers.size(); i++) {
        candidates.add(workers.get(i).candidate(chains.get(i)));
      }
      RoutingPolicy.Choice c = policy.choose(requestBlocks, candidates);
      RoutedWorker w = workers.get(c.index());
      return new Routed(w, c.decision(), requestBlocks, candidates.get(c.index()).overlapBlocks(), w.begin(chains.get(c.index())));
    }
  }

  public boolean cacheAware() {
    return policy.cacheAware();
  }
}
