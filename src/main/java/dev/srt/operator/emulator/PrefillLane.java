package dev.srt.operator.emulator;

/**
 * The engine's single prefill lane (a GPU prefills one batch at a time) as a schedule rather than
 * a lock: each prompt books the next free interval of the lane and its thread sleeps until that
 * interval ends. On a busy host a thread wakes late now and then; with a lock every late wake-up
 * would also hold back the whole queue behind it, so the host's load, not the model, would set
 * the throughput. With a schedule the lane runs at the modelled speed and a late wake-up delays
 * only its own request.
 */
final class PrefillLane {
  /** nanoTime values only compare by difference; the lane starts free. */
  private long freeAt = System.nanoTime();

  /** Books {@code costNanos} of lane time from now or from the end of the last booking; returns its end in {@link System#nanoTime()} terms. */
  synchronized long book(long costNanos) {
    long now = System.nanoTime();
    long start = freeAt - now > 0 ? freeAt : now;
    freeAt = start + costNanos;
    return freeAt;
  }
}
