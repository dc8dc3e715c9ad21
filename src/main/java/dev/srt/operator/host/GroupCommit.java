package dev.srt.operator.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Group commit of one kind of remote command: a call that arrives while a batch of its kind runs
 * on the host waits, and is served with every other call that arrived meanwhile by the next
 * batch, run by the first of them. So N concurrent calls cost about two remote executions, not N
 * (the deletion of 100 comparisons: 100 cancels at once). At most {@code parallel} batches run at
 * once per instance; a batch holds at most {@code maxItems} calls, the oldest first.
 *
 * @param <I> what one call asks
 * @param <O> what one call gets
 */
final class GroupCommit<I, O> {
  /** Runs one batch: an answer for every item, or an exception for all of them. */
  interface Batch<I, O> {
    Map<I, O> run(List<I> items) throws HostException;
  }

  private static final class Call<I, O> {
    final I item;
    O result;
    HostException error;
    boolean done;

    Call(I item) {
      this.item = item;
    }
  }

  private final Batch<I, O> batch;
  private final int maxItems;
  private final int parallel;
  private final String what;
  private final List<Call<I, O>> queued = new ArrayList<>();
  private int running;

  GroupCommit(String what, int maxItems, int parallel, Batch<I, O> batch) {
    if (maxItems < 1 || parallel < 1) {
      throw new IllegalArgumentException("maxItems and parallel must be >= 1");
    }
    this.what = what;
    this.maxItems = maxItems;
    this.parallel = parallel;
    this.batch = batch;
  }

  /** This item's answer, from the batch that carried it (run by this thread or another). */
  O call(I item) throws HostException {
    Call<I, O> mine = new Call<>(item);
    synchronized (this) {
      queued.add(mine);
    }
    while (true) {
      List<Call<I, O>> taken = null;
      synchronized (this) {
        while (!mine.done && taken == null) {
          if (running < parallel && queued.contains(mine)) {
            running++;
            List<Call<I, O>> head = queued.subList(0, Math.min(maxItems, queued.size()));
            taken = new ArrayList<>(head);
            head.clear();
          } else {
            awaitChange(mine);
          }
        }
        if (mine.done) {
          return answer(mine);
        }
      }
      runBatch(taken);
    }
  }

  /** Waits for a batch to end; an interrupted call that no batch carries yet gives up. */
  private void awaitChange(Call<I, O> mine) throws HostException {
    try {
      wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      if (queued.remove(mine)) {
        throw new HostException(HostException.Kind.IO, what + ": interrupted while waiting for a batch");
      }
      // A running batch carries it: its answer is on the way.
    }
  }

  private void runBatch(List<Call<I, O>> taken) {
    Map<I, O> results = null;
    HostException error = null;
    try {
      results = batch.run(taken.stream().map(c -> c.item).toList());
    } catch (HostException e) {
      error = e;
    } catch (RuntimeException e) {
      error = new HostException(HostException.Kind.IO, what + ": " + e, e);
    }
    synchronized (this) {
      for (Call<I, O> c : taken) {
        if (error != null) {
          c.error = error;
        } else if (results.containsKey(c.item)) {
          c.result = results.get(c.item);
        } else {
          c.error = new HostException(HostException.Kind.COMMAND_FAILED, what + ": the host's answer has nothing for " + c.item);
        }
        c.done = true;
      }
      running--;
      notifyAll();
    }
  }

  /** Calls waiting for a batch (not counting those a running batch carries). */
  synchronized int waiting() {
    return queued.size();
  }

  private O answer(Call<I, O> call) throws HostException {
    if (call.error != null) {
      throw call.error;
    }
    return call.result;
  }
}
