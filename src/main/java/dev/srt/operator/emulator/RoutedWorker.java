package dev.srt.operator.emulator;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A router's view of one worker: where to send requests, what is in flight there, and which
 * prefixes it was sent. The real routers learn cached blocks from the engines' KV events; the
 * emulator predicts them from its own routing decisions (Dynamo's approximate mode), which agrees
 * with the engine as long as nothing else talks to it and it does not evict.
 */
public final class RoutedWorker {
  private static final int PREDICTED_CACHE_BLOCKS = 1 << 16;

  private final String url;
  private final String model;
  private final int blockSize;
  private final BootstrapServer bootstrap;
  private final PrefixCache predicted;
  private final AtomicInteger active = new AtomicInteger();
  private final AtomicLong activeBlocks = new AtomicLong();
  private final LongAdder routed = new LongAdder();

  /** {@code blockSize} 0 means the worker publishes no KV events: no prefix view, as upstream. */
  public RoutedWorker(String url, String model, int blockSize) {
    this(url, model, blockSize, null);
  }

  /** A prefill worker, whose KV the decode workers fetch from {@code bootstrap}. */
  public RoutedWorker(String url, String model, int blockSize, BootstrapServer bootstrap) {
    this.url = url;
    this.model = model;
    this.blockSize = blockSize;
    this.bootstrap = bootstrap;
    this.predicted = blockSize > 0 ? new PrefixCache(PREDICTED_CACHE_BLOCKS) : null;
  }

  public String url() {
    return url;
  }

  /** The prefill engine's bootstrap server, or null (another mode, or not published). */
  public BootstrapServer bootstrap() {
    return bootstrap;
  }

  public String model() {
    return model;
  }

  public int activeRequests() {
    return active.get();
  }

  public long routedRequests() {
    return routed.sum();
  }

  public long[] chain(java.util.List<String> tokens) {
    return predicted == null ? new long[0] : BlockHasher.chain(tokens, blockSize);
  }

  public RoutingPolicy.Candidate candidate(long[] chain) {
    return new RoutingPolicy.Candidate(active.get(), activeBlocks.get(), predicted == null ? 0 : predicted.match(chain));
  }

  /** Marks a request as sent here; the returned handle ends it. */
  public Inflight begin(long[] chain) {
    routed.increment();
    active.incrementAndGet();
    activeBlocks.addAndGet(chain.length);
    if (predicted != null) {
      predicted.insert(chain);
    }
    return () -> {
      active.decrementAndGet();
      activeBlocks.addAndGet(-chain.length);
    };
  }

  public void forgetCache() {
    if (predicted != null) {
      predicted.clear();
    }
  }

  /** An in-flight request; closing it releases the worker's load. */
  public interface Inflight extends AutoCloseable {
    @Override
    void close();
  }
}
